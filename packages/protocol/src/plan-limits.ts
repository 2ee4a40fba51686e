/** Most items a plan may have; longer plans are refused (a plan is a short list of todos). */
export const MAX_PLAN_ITEMS = 200;
/** Longest text of one plan item, in characters. */
export const MAX_PLAN_ITEM_TEXT = 2_000;
/** Longest id of one plan item, in characters. */
export const MAX_PLAN_ITEM_ID = 200;
