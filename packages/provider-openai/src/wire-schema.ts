import { z } from 'zod';

// What the provider reads of a Chat Completions answer, checked before it is used: a server
// that answers HTML, `null` or `{"choices":[null]}` is refused with a typed error. Objects are
// loose: OpenAI-compatible servers add fields of their own.

const usage = z
  .looseObject({
    prompt_tokens: z.number().nonnegative().nullish(),
    completion_tokens: z.number().nonnegative().nullish(),
  })
  .nullish();

/** Reasoning text of servers that return it (`reasoning_content` or `reasoning`). */
const reasoning = {
  reasoning_content: z.unknown().optional(),
  reasoning: z.unknown().optional(),
};

/** Token counts of an answer. */
interface WireUsage {
  prompt_tokens?: number | null | undefined;
  completion_tokens?: number | null | undefined;
}

/** Reasoning fields some servers add. */
interface WireReasoning {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/** A validated completion. */
export interface WireCompletion {
  choices: {
    message: {
      content?: string | null | undefined;
      tool_calls?:
        { id: string; type?: string | undefined; function: { name: string; arguments?: string | null | undefined } }[] | null | undefined;
    } & WireReasoning;
    finish_reason?: string | null | undefined;
  }[];
  usage?: WireUsage | null | undefined;
}

/** A validated stream chunk. */
export interface WireChunk {
  choices?:
    | {
        delta?:
          | ({
              content?: string | null | undefined;
              tool_calls?:
                | {
                    index: number;
                    id?: string | null | undefined;
                    function?: { name?: string | null | undefined; arguments?: string | null | undefined } | null | undefined;
                  }[]
                | null
                | undefined;
            } & WireReasoning)
          | null
          | undefined;
        finish_reason?: string | null | undefined;
      }[]
    | null
    | undefined;
  usage?: WireUsage | null | undefined;
}

/** An error sent inside a stream. */
export interface WireStreamError {
  error: string | { message?: unknown; type?: unknown };
}

/** One answer of `POST /chat/completions`. */
export const completionSchema: z.ZodType<WireCompletion> = z.looseObject({
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        tool_calls: z
          .array(
            z.looseObject({
              id: z.string(),
              type: z.string().optional(),
              function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
            }),
          )
          .nullish(),
        ...reasoning,
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage,
});

/** One `data:` chunk of a streamed answer. */
export const chunkSchema: z.ZodType<WireChunk> = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        delta: z
          .looseObject({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.looseObject({
                  index: z.int().nonnegative().max(1000),
                  id: z.string().nullish(),
                  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
            ...reasoning,
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage,
});

/** An `error` a server sends inside a stream (`data: {"error": {...}}`). */
export const streamErrorSchema: z.ZodType<WireStreamError> = z.looseObject({
  error: z.union([z.string(), z.looseObject({ message: z.unknown().optional(), type: z.unknown().optional() })]),
});
