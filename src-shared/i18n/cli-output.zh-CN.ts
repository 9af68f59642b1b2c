import type { Catalogue } from './en';

/** CLI 输出（表格、状态行、请求提示、说明）的简体中文目录：键与 cli-output.en.ts 相同。 */
export const cliOutZhCN: Catalogue['cliOut'] = {
  yes: '是',
};
