/**
 * The CLI's own output beyond help and usage errors (tables, status lines, request prompts, notes), in English.
 * A section of the catalogue (`cliOut.*` in en.ts); cli-output.zh-CN.ts has the same keys. --json output is never
 * translated.
 */
export const cliOutEn = {
  /** Placeholder until the CLI's lines move here. */
  yes: 'yes',
};
