import type { Catalogue } from './en';

/** 目录中 `diagnostics.*` 一节的简体中文：键与 diagnostics.en.ts 相同。 */
export const diagnosticsZhCN: Catalogue['diagnostics'] = {
  placeholder: '占位',
};
