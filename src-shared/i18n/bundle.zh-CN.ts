import type { Catalogue } from './en';

/** 安装 .mcpb 包：说明与拒绝理由的简体中文目录：键与 bundle.en.ts 相同。 */
export const bundleZhCN: Catalogue['bundle'] = {
  unsigned: '未签名：无法验证制作者。',
};
