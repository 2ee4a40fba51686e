export { OpenAIProvider } from './openai-provider.js';
export type { OpenAIProviderOptions } from './openai-provider.js';
