import type pc from 'picocolors';

/** picocolors' formatters, coloured or not. */
export type Colors = ReturnType<typeof pc.createColors>;
