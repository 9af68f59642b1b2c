import type { Catalogue } from './en';

/** 安装服务器（.mcpb 包、MCP Registry、switchboard:// 链接）：安装计划的说明与拒绝理由的简体中文目录，键和占位符与 bundle.en.ts 相同。 */
export const bundleZhCN: Catalogue['bundle'] = {
  note: {
    unpackedTo: '解压到 {{folder}}。',
    replaces: '将替换已解压在那里的同名包。',
    unsigned: '未签名：无法核实制作者。',
    verified: '由 {{signer}} 签名，已验证（证书颁发者：{{issuer}}）。',
    selfSigned: '由 {{signer}} 自签名：发布者未经验证。',
    untrusted: '由 {{signer}} 签名，但其证书（颁发者：{{issuer}}）无法追溯到受信任的根证书：发布者未经验证。',
    expired: '由 {{signer}} 签名，但所用证书已于 {{date}} 过期：发布者未经验证。',
    notYetValid: '由 {{signer}} 签名，但所用证书要到 {{date}} 才生效：发布者未经验证。',
    notForCode: '由 {{signer}} 签名，但所用证书不是代码签名证书：发布者未经验证。',
    downloaded: '从 {{url}} 下载；其 sha256 与 Registry 所列的一致。',
    customRegistry: '该软件包来自 {{base}}，而不是默认的 {{kind}} 仓库。',
    fromLink: '来自链接：添加前请确认命令是否符合预期。',
  },
  fingerprint: '签名证书 SHA-256：{{fingerprint}}',
  refusal: {
    tampered: '{{file}} 带有签名，但签名与文件内容不符：文件在签名后被改动过，或在传输中损坏。未安装。请从发布者处重新获取一份。',
    malformed:
      '{{file}} 的签名块已损坏（位于第 {{offset}} 字节）：{{problem}}。未安装。请从发布者处重新获取一份；如果你信任它的来源，可以用 "npx @anthropic-ai/mcpb unsign FILE" 去掉签名块，再作为未签名的包安装。',
    truncated:
      '{{file}} 在签名块中途结束（位于第 {{offset}} 字节）：{{problem}}。文件不完整（可能下载中断了），因此未安装。请重新下载，或从发布者处获取一份新的副本。',
    unsupported:
      '{{file}} 使用 {{what}} 签名，Switchboard 不检查这种签名，因此未安装。请向发布者索取用 SHA-256 与 RSA 或 ECDSA 签名的包（即 "mcpb sign" 生成的格式）。',
  },
};
