/** Pinned tool definitions and the hidden text found in them, as the UI and the CLI see them. Zod-free. */

/**
 * `trusted`: as pinned (or pinned on the server's first listing). `changed`: differs from the pinned definition (or
 * the server's instructions changed). `new`: appeared after the server's tools were pinned. `flagged`: not pinned,
 * and its text hides characters (below). All but `trusted` need review: never offered to the model, calls refused.
 */
export type ToolReviewState = 'trusted' | 'changed' | 'new' | 'flagged';
/** `ui`: the tool's `_meta.ui` (MCP Apps); `appHtml`: the digest of the HTML its `_meta.ui.resourceUri` names. */
export type ToolDefinitionField = 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations' | 'ui' | 'appHtml' | 'instructions';

/** A definition as it was trusted (and the server's instructions then), to show beside the current one. */
export interface PinnedDefinition {
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  ui?: Record<string, unknown>;
  appHtml?: string;
  instructions?: string;
}

/**
 * Invisible or deceptive text: `zero-width` (U+200B–U+200F, U+2060–U+2064, U+FEFF), `bidi` controls, Unicode `tag`
 * characters (U+E0000–U+E007F, which spell ASCII invisibly), `variation-selector` (U+E0100–U+E01EF, and U+FE00–U+FE0F
 * in runs or after a character that takes none: text can be spelled in them), `control` (C0 controls other than tab
 * and line breaks, DEL, C1, and terminal escape sequences: `ESC[8m` conceals text on a terminal), `invisible` (soft
 * hyphen, Hangul fillers, deprecated format characters U+206A–U+206F, musical format characters U+1D173–U+1D17A).
 * Length is not one of them: a long text hides nothing.
 */
export type HiddenTextKind = 'zero-width' | 'bidi' | 'tag' | 'variation-selector' | 'control' | 'invisible';
export interface HiddenTextFinding {
  /** Where: `title`, `description`, `inputSchema.properties.path.description`, `inputSchema.properties.path (name)`, … */
  where: string;
  kinds: HiddenTextKind[];
  /**
   * The text with each invisible character spelled out (`⟨U+200B ZWSP⟩`), escape sequences as `⟨ESC[8m⟩`, and runs of
   * tag characters and variation selectors decoded (`⟨tags: …⟩`, `⟨variation selectors: …⟩`).
   */
  decoded: string;
  /** What the tag characters spell, when there are any. */
  tagText?: string;
  /** What runs of variation selectors spell (each one a byte, the bytes read as UTF-8), when they spell text. */
  selectorText?: string;
  /** How many invisible characters (an escape sequence counts as one). */
  count: number;
}

export interface ToolReview {
  state: ToolReviewState;
  /** `changed`: what differs from the pinned definition. */
  changed?: ToolDefinitionField[];
  /** `changed`: the definition as trusted (only the fields that changed). */
  pinned?: PinnedDefinition;
  /** Hidden text found in the tool's title, description or schemas (shown for trusted tools too). */
  hidden?: HiddenTextFinding[];
}

export interface TrustResults {
  /** The tools whose current definitions are now pinned (trusted). */
  'tools:trust': { server: string; trusted: string[] };
}

/** Each trust channel once, at runtime (the preload and the IPC gateway register them by name). */
export const trustChannelNames = { 'tools:trust': true } as const satisfies Record<keyof TrustResults, true>;
