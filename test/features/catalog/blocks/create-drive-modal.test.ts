import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  createDriveFieldBlockIds,
  createDriveModal,
  CreateDriveFields as F,
  readCreateDriveSubmission,
} from '../../../../src/features/catalog/blocks/create-drive-modal.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import {
  inputByBlockId,
  networksFixture,
  selected,
  selectOptions,
} from '../../../slack/block-kit/modal-fixtures.js';

describe('createDriveModal', () => {
  it('asks for name, size in GiB, region and a network from the list', () => {
    const view = createDriveModal({ networks: networksFixture(2) });
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.createDrive);
    expect(inputByBlockId(view, F.size.blockId)?.label.text).toBe('Size (GiB)');
    const networks = selectOptions(view, F.network.blockId);
    expect(networks.map((o) => [o.text.text, o.value])).toEqual([
      ['render-net-0 · Europe (AMS1)', 'net0'],
      ['render-net-1 · Europe (AMS1)', 'net1'],
    ]);
  });

  it('asks for a network id when no network was listed, and stays within limits with many', () => {
    const none = createDriveModal({ networks: [] });
    assertBlockKitLimits(none);
    expect(inputByBlockId(none, F.network.blockId)?.element.type).toBe('plain_text_input');
    assertBlockKitLimits(createDriveModal({ networks: networksFixture(250) }));
  });

  it('reads the createSharedDrive input', () => {
    const values: ViewOutput['state']['values'] = {
      drive_name: { drive_name_input: { type: 'plain_text_input', value: 'datasets' } },
      drive_size: { drive_size_input: { type: 'number_input', value: '500' } },
      drive_region: {
        drive_region_input: { type: 'static_select', selected_option: selected('Europe (AMS1)') },
      },
      drive_network: { drive_network_input: { type: 'static_select', selected_option: selected('net1') } },
    };
    const parameters = readCreateDriveSubmission(values);
    expect(parameters).toEqual({ name: 'datasets', size: 500, regionId: 'Europe (AMS1)', networkId: 'net1' });
    for (const key of Object.keys(parameters)) expect(createDriveFieldBlockIds).toHaveProperty(key);
  });
});
