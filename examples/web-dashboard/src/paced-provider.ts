import {
  sleep,
  systemClock,
  type Clock,
  type CompletionRequest,
  type CompletionResponse,
  type Provider,
  type ProviderCallOptions,
  type StreamChunk,
} from '@headway/runtime';

/**
 * Wraps a provider so its streamed text arrives piece by piece, `chunkDelayMs` apart, the
 * way a real model's does — the scripted provider hands over a whole reply at once.
 */
export function pacedProvider(inner: Provider, chunkDelayMs: number, clock: Clock = systemClock): Provider {
  const paced: Provider = {
    name: inner.name,
    isAvailable: () => inner.isAvailable?.() ?? true,
    complete: (request: CompletionRequest, options?: ProviderCallOptions): Promise<CompletionResponse> => inner.complete(request, options),
  };
  const stream = inner.stream?.bind(inner);
  if (stream === undefined) return paced;
  paced.stream = async function* (request: CompletionRequest, options: ProviderCallOptions = {}): AsyncGenerator<StreamChunk> {
    for await (const chunk of stream(request, options)) {
      if (chunk.type === 'text-delta' && chunkDelayMs > 0) await sleep(clock, chunkDelayMs, options.signal);
      yield chunk;
    }
  };
  return paced;
}
