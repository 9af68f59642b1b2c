import type { ReadResourceView } from '../../../src-shared/host-api';
import {
  maxAttachmentImageBytes,
  maxAttachmentTextChars,
  maxChatAttachments,
  type ChatAttachment,
  type ChatAttachmentContents,
  type ChatAttachmentRef,
} from '../../../src-shared/contract/chat';
import { CoreError, messageOf } from '../errors';

/** Where the chat reads attached resources from (the host: each server's ResourcesFeature). */
export interface ResourceSource {
  read(server: string, uri: string): Promise<ReadResourceView>;
  /** The resource's listed name, if the server listed it. */
  nameOf?(server: string, uri: string): Promise<string | undefined>;
}

/**
 * Reads every attached resource (in parallel) into what the message stores: text cut at maxAttachmentTextChars,
 * images kept up to maxAttachmentImageBytes, other blobs reduced to type and size. One that cannot be read
 * fails the send, naming it (the person can remove it and send again).
 */
export async function readAttachments(refs: readonly ChatAttachmentRef[] | undefined, source: ResourceSource | undefined): Promise<ChatAttachment[]> {
  if (!refs || refs.length === 0) return [];
  if (refs.length > maxChatAttachments)
    throw new CoreError('invalid-argument', `At most ${maxChatAttachments} resources can be attached to one message (${refs.length} were).`);
  if (!source) throw new CoreError('not-supported', 'This host cannot read resources, so nothing can be attached to a message.');
  const unique = refs.filter((ref, i) => refs.findIndex((r) => r.server === ref.server && r.uri === ref.uri) === i);
  return Promise.all(
    unique.map(async (ref): Promise<ChatAttachment> => {
      let read: ReadResourceView;
      try {
        read = await source.read(ref.server, ref.uri);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new CoreError(
          code === 'unknown-server' || code === 'server-not-ready' || code === 'not-supported' ? code : 'request-failed',
          `The attached resource "${ref.uri}" (server "${ref.server}") could not be read: ${messageOf(error)} Remove it from the message or try again.`,
          { cause: error, data: { server: ref.server, uri: ref.uri } },
        );
      }
      const name = await source.nameOf?.(ref.server, ref.uri).catch(() => undefined);
      return { server: ref.server, uri: ref.uri, ...(name !== undefined ? { name } : {}), contents: read.contents.map(stored) };
    }),
  );
}

function stored(item: ReadResourceView['contents'][number]): ChatAttachmentContents {
  const base = { uri: item.uri, ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}) };
  if (item.text !== undefined) {
    const size = Buffer.byteLength(item.text, 'utf8');
    if (item.text.length <= maxAttachmentTextChars) return { ...base, text: item.text, size };
    return { ...base, text: item.text.slice(0, maxAttachmentTextChars), size, truncated: true };
  }
  const blob = item.blob ?? '';
  const size = Buffer.byteLength(blob, 'base64');
  if (item.mimeType?.startsWith('image/') === true && size <= maxAttachmentImageBytes) return { ...base, blob, size };
  return { ...base, size };
}
