/** The `diagnostics.*` section of the catalogue (see en.ts); diagnostics.zh-CN.ts has the same keys and placeholders. */
export const diagnosticsEn = {
  /** Placeholder until the section is filled. */
  placeholder: 'placeholder',
};
