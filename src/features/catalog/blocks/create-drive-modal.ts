// /ps drive create: a shared drive needs a network in its region with free IP space.
import type { KnownBlock, ModalView } from '@slack/types';
import { REGIONS } from '../../../paperspace/constants.js';
import type { Network } from '../../../paperspace/schemas.js';
import {
  field,
  input,
  modal,
  numberElement,
  selectElement,
  shownOfHint,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { LIMITS, option } from '../../../slack/block-kit/text.js';
import {
  definedEntries,
  readNumber,
  readString,
  type ViewStateValues,
} from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const CreateDriveFields = {
  name: field('drive_name'),
  size: field('drive_size'),
  region: field('drive_region'),
  network: field('drive_network'),
} as const;

export interface CreateDriveModalInput {
  networks: Network[];
  context?: ModalContext;
}

export function createDriveModal({ networks, context = {} }: CreateDriveModalInput): ModalView {
  const F = CreateDriveFields;
  const selectable = networks.filter((network) => network.id.length <= LIMITS.optionValue);
  const networkHint = 'Must be in the drive’s region and have free IP space.';
  const blocks: KnownBlock[] = [
    input(F.name, 'Name', textElement({ placeholder: 'datasets', maxLength: 255 })),
    input(F.size, 'Size (GiB)', numberElement({ min: 1 })),
    input(F.region, 'Region', selectElement(REGIONS.map((region) => option(region, region)))),
    selectable.length > 0
      ? input(
          F.network,
          'Network',
          selectElement(
            selectable.map((n) => option(`${n.name} · ${n.region}`, n.id, `${n.network} / ${n.netmask}`)),
          ),
          { hint: shownOfHint(selectable.length, 'networks', networkHint) ?? networkHint },
        )
      : input(F.network, 'Network id', textElement({ placeholder: 'e.g. n1a2b3', maxLength: 255 }), {
          hint: `No networks were listed for this account. ${networkHint}`,
        }),
  ];
  return modal({
    callbackId: CallbackId.createDrive,
    title: 'New shared drive',
    submit: 'Create',
    privateMetadata: encodeModalMetadata(context),
    blocks,
  });
}

/** The block that shows an error about each shared drive create input. */
export const createDriveFieldBlockIds: Record<string, string> = {
  name: CreateDriveFields.name.blockId,
  size: CreateDriveFields.size.blockId,
  regionId: CreateDriveFields.region.blockId,
  networkId: CreateDriveFields.network.blockId,
};

/** The createSharedDrive input (name, size in GiB, regionId as the region name, networkId), raw. */
export function readCreateDriveSubmission(values: ViewStateValues): Record<string, unknown> {
  const F = CreateDriveFields;
  return definedEntries({
    name: readString(values, F.name),
    size: readNumber(values, F.size),
    regionId: readString(values, F.region),
    networkId: readString(values, F.network),
  });
}
