export { OpenAIProvider } from './openai-provider.js';
export type { OpenAIProviderOptions } from './openai-provider.js';
export { MAX_ANSWER_BYTES } from './read-answer.js';
