/*
 * Words of tool names, titles, descriptions and queries, for ranking. Identifiers are split where people would
 * see words (`read_file`, `readFile`, `read-file`, `getV2Items` → read file, get v 2 items). Chinese, Japanese and
 * Korean text has no spaces: each run of those scripts gives its single characters and its overlapping pairs
 * (读取文件 → 读 取 文 件 读取 取文 文件), which lets BM25 match words without a dictionary.
 */

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const cjkRuns = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;

/** Splits text into lower-case words (CJK runs into characters and pairs). */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase();
  const out: string[] = [];
  for (const chunk of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (chunk === '') continue;
    if (!cjk.test(chunk)) {
      out.push(chunk);
      continue;
    }
    for (const piece of chunk.split(cjkRuns)) {
      if (piece === '') continue;
      if (!cjk.test(piece)) {
        out.push(piece);
        continue;
      }
      const chars = [...piece];
      out.push(...chars);
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
    }
  }
  return out;
}

export const isCjk = (term: string): boolean => cjk.test(term);

const stopWords = new Set(
  'a an and are as at be by can do does for from how i in into is it its me my of on or so that the this to use using want with you your 的 了 和 是 在 我 把 用 一 个'.split(
    ' ',
  ),
);

/**
 * A word as it is indexed and searched: stop words dropped, English plurals and a few endings folded
 * (files → file, directories → directory, creates/created/creating → creat), so a query need not match a description's form.
 */
export function normalizeTerm(term: string): string | null {
  if (stopWords.has(term)) return null;
  if (isCjk(term) || term.length <= 3) return term;
  let t = term;
  if (t.endsWith('ies') && t.length > 4) t = `${t.slice(0, -3)}y`;
  else if (/(ches|shes|xes|zes|sses)$/.test(t)) t = t.slice(0, -2);
  else if (t.endsWith('s') && !/(ss|us|is)$/.test(t)) t = t.slice(0, -1);
  if (t.endsWith('ing') && t.length > 5) t = t.slice(0, -3);
  else if (t.endsWith('ed') && t.length > 4 && !t.endsWith('eed')) t = t.slice(0, -2);
  // create, created, creating → creat
  if (t.endsWith('e') && t.length > 4) t = t.slice(0, -1);
  return t;
}
