/**
 * JSON.parse, except that integers a JSON.parse'd number would round (beyond 2^53) arrive as
 * strings of their exact digits. GitLab sends X.509 certificate serial numbers, up to 20 bytes, as
 * bare JSON integers (rest-conventions §10); a reviver cannot help, because the number is already
 * rounded when a reviver sees it, so the text is read first and such integers are quoted.
 */
export function parseJsonKeepingBigIntegers(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** Puts quotes around every integer literal outside strings whose value is not a safe integer. */
export function quoteUnsafeIntegers(text: string): string {
  let result = '';
  let copied = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      // Skip the string, escapes included.
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
      index++;
      continue;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      if (!match) {
        index++;
        continue;
      }
      const literal = match[0];
      const integer = match[1] === undefined && match[2] === undefined;
      if (integer && !Number.isSafeInteger(Number(literal))) {
        result += `${text.slice(copied, index)}"${literal}"`;
        copied = index + literal.length;
      }
      index += literal.length;
      continue;
    }
    index++;
  }
  return result + text.slice(copied);
}
