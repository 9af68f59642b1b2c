/** Installing .mcpb bundles: notes and refusals (`bundle.*` in en.ts); bundle.zh-CN.ts has the same keys. */
export const bundleEn = {
  /** Placeholder until the bundle notes move here. */
  unsigned: 'Not signed: who made it is not verified.',
};
