import { ProviderError } from './provider-error.js';

/** The options of a vendor provider that {@link VendorClient} reads. */
export interface VendorClientOptions {
  /** API key (default `<PREFIX>_API_KEY` of `env`). Without one the provider is unavailable. */
  apiKey?: string;
  /** Base URL of the API or a compatible server (default `<PREFIX>_BASE_URL` of `env`). */
  baseURL?: string;
  /** Set false to disable the provider without removing it. */
  enabled?: boolean;
  /** Environment to read defaults from (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/**
 * The SDK client a vendor provider calls, made only when an API key is known (the option, else
 * `<PREFIX>_API_KEY`), with the base URL of the option, else `<PREFIX>_BASE_URL` (`undefined`
 * when neither is set). It answers the provider's `isAvailable` and `unavailableReason`, and
 * {@link VendorClient.get} throws the `PROVIDER_UNAVAILABLE` error that names the variable to set.
 *
 * @example
 * ```ts
 * this.#client = new VendorClient(this.name, 'OPENAI', options, (apiKey, baseURL) => new OpenAI({ apiKey, baseURL, maxRetries: 0 }));
 * ```
 */
export class VendorClient<C> {
  readonly #provider: string;
  readonly #keyVariable: string;
  readonly #enabled: boolean;
  readonly #client: C | undefined;

  constructor(
    provider: string,
    envPrefix: string,
    options: VendorClientOptions,
    create: (apiKey: string, baseURL: string | undefined) => C,
  ) {
    const env = options.env ?? process.env;
    this.#provider = provider;
    this.#keyVariable = `${envPrefix}_API_KEY`;
    this.#enabled = options.enabled ?? true;
    const apiKey = options.apiKey ?? env[this.#keyVariable];
    const baseURL = options.baseURL ?? env[`${envPrefix}_BASE_URL`];
    this.#client = apiKey === undefined || apiKey === '' ? undefined : create(apiKey, baseURL === '' ? undefined : baseURL);
  }

  /** True when enabled and an API key is known. */
  isAvailable(): boolean {
    return this.#enabled && this.#client !== undefined;
  }

  /** Why {@link isAvailable} is false (`disabled`, or the variable to set), or `undefined` when it is true. */
  unavailableReason(): string | undefined {
    if (!this.#enabled) return 'disabled';
    if (this.#client === undefined) return `no API key: set ${this.#keyVariable} or pass apiKey`;
    return undefined;
  }

  /**
   * The client.
   *
   * @throws {ProviderError} `PROVIDER_UNAVAILABLE` saying why (see {@link unavailableReason}).
   */
  get(): C {
    const reason = this.unavailableReason();
    if (reason !== undefined || this.#client === undefined) {
      throw new ProviderError('PROVIDER_UNAVAILABLE', `Provider "${this.#provider}" is not available (${reason ?? 'no client'})`, {
        provider: this.#provider,
      });
    }
    return this.#client;
  }
}
