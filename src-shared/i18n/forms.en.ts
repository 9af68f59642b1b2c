/** The `forms.*` section of the catalogue (see en.ts); forms.zh-CN.ts has the same keys and placeholders. */
export const formsEn = {
  /** Placeholder until the section is filled. */
  placeholder: 'placeholder',
};
