import type { Catalogue } from './en';

/** 目录中 `forms.*` 一节的简体中文：键与 forms.en.ts 相同。 */
export const formsZhCN: Catalogue['forms'] = {
  placeholder: '占位',
};
