export { AnthropicProvider } from './anthropic-provider.js';
export type { AnthropicProviderOptions } from './anthropic-provider.js';
