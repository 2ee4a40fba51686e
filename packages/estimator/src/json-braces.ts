/**
 * Index of the `}` that closes the `{` at `open`, skipping braces inside JSON strings;
 * -1 when the text ends first. Shared by reading and by stripping `_progress` objects.
 */
export function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
