// private_metadata: the context a view submission needs and the submission payload lacks (where to
// answer, and for machine modals which machine). It comes back from Slack, so it is validated.
import { z } from 'zod';
import type { Machine } from '../../paperspace/schemas.js';
import { SEAL_OVERHEAD_CHARS } from '../metadata-seal.js';
import { decodeEncodedValue } from './encoded-value.js';
import { LIMITS } from './text.js';

/** Names are user-chosen; capping the copy in metadata keeps it within Slack's 3000 characters. */
const MACHINE_NAME_CHARS = 1000;

const modalMetadataSchema = z.strictObject({
  /** Channel the modal was opened from, to answer there. */
  channelId: z.string().max(64).optional(),
  /** Thread of the card the modal was opened from. */
  threadTs: z.string().max(64).optional(),
  /** The card message the modal was opened from, to update it in place after the submission. */
  messageTs: z.string().max(64).optional(),
  /** response_url of the originating command or action, to answer ephemerally. */
  responseUrl: z.url().max(1000).optional(),
  machineId: z.string().max(255).optional(),
  machineName: z.string().max(MACHINE_NAME_CHARS).optional(),
});
export type ModalMetadata = z.infer<typeof modalMetadataSchema>;

/** Where a submission should answer: what every modal builder accepts. */
export type ModalContext = Pick<ModalMetadata, 'channelId' | 'threadTs' | 'messageTs' | 'responseUrl'>;

/** Compact JSON of the defined fields; undefined when there is nothing to carry. */
export function encodeModalMetadata(metadata: ModalMetadata): string | undefined {
  if (Object.values(metadata).every((value) => value === undefined)) return undefined;
  return encode(metadata);
}

function encode(metadata: ModalMetadata): string {
  const encoded = JSON.stringify(modalMetadataSchema.parse(metadata));
  // The seal (metadata-seal.ts) is added on the way out, and Slack counts it too.
  const room = LIMITS.privateMetadata - SEAL_OVERHEAD_CHARS;
  if (encoded.length > room) {
    throw new RangeError(
      `private_metadata is ${encoded.length} characters; ${room} fit beside the seal in Slack's ${LIMITS.privateMetadata}`,
    );
  }
  return encoded;
}

/** Reads private_metadata written by encodeModalMetadata ('' when a modal carried none). */
export function decodeModalMetadata(raw: string | undefined): ModalMetadata {
  if (raw === undefined || raw === '') return {};
  return decodeEncodedValue(modalMetadataSchema, raw, 'Modal private_metadata');
}

/** Metadata of a modal about one machine: where to answer, and which machine (id and name). */
export function encodeMachineModalMetadata(
  machine: Pick<Machine, 'id' | 'name'>,
  context: ModalContext,
): string {
  return encode({
    ...context,
    machineId: machine.id,
    machineName: machine.name.slice(0, MACHINE_NAME_CHARS),
  });
}
