import type { ViewOutput } from '@slack/bolt';
import type { Checkboxes, NumberInput, PlainTextInput, StaticSelect } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  UpdateMachineFields as F,
  readUpdateMachineSubmission,
  updateMachineFieldBlockIds,
  updateMachineModal,
} from '../../../../src/features/machines/blocks/update-machine-modal.js';
import { decodeModalMetadata } from '../../../../src/slack/block-kit/modal-metadata.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { machineFixture } from '../../../slack/block-kit/fixtures.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { inputByBlockId, selected } from '../../../slack/block-kit/modal-fixtures.js';

function build(...args: Parameters<typeof updateMachineModal>) {
  const view = updateMachineModal(...args);
  assertBlockKitLimits(view);
  return view;
}

describe('updateMachineModal', () => {
  it('is prefilled with the machine’s current settings and carries the machine', () => {
    const machine = machineFixture({
      shutdownTimeoutInHours: 4,
      shutdownTimeoutForces: true,
      performAutoSnapshot: true,
      autoSnapshotFrequency: 'week',
      autoSnapshotSaveCount: 5,
      dynamicPublicIp: true,
    });
    const view = build(machine, { channelId: 'C9' });
    expect(view.callback_id).toBe(CallbackId.updateMachine);
    const element = <T>(blockId: string) => inputByBlockId(view, blockId)?.element as T;
    expect(element<PlainTextInput>(F.machineName.blockId).initial_value).toBe('gpu-1');
    expect(element<NumberInput>(F.shutdownTimeout.blockId).initial_value).toBe('4');
    expect(element<Checkboxes>(F.shutdownOptions.blockId).initial_options?.map((o) => o.value)).toEqual([
      'force',
    ]);
    expect(element<Checkboxes>(F.autoSnapshot.blockId).initial_options?.map((o) => o.value)).toEqual([
      'perform',
    ]);
    expect(element<StaticSelect>(F.autoSnapshotFrequency.blockId).initial_option?.value).toBe('week');
    expect(element<NumberInput>(F.autoSnapshotSaveCount.blockId).initial_value).toBe('5');
    expect(element<Checkboxes>(F.publicIp.blockId).initial_options?.map((o) => o.value)).toEqual(['dynamic']);
    expect(decodeModalMetadata(view.private_metadata)).toEqual({
      channelId: 'C9',
      machineId: 'psz9xmdl1',
      machineName: 'gpu-1',
    });
  });

  it('leaves fields blank where the machine has no value, and ignores a frequency it does not know', () => {
    const view = build(
      machineFixture({
        shutdownTimeoutInHours: null,
        autoSnapshotFrequency: 'fortnight',
        autoSnapshotSaveCount: null,
        performAutoSnapshot: false,
        dynamicPublicIp: null,
      }),
    );
    expect(inputByBlockId(view, F.shutdownTimeout.blockId)?.element).not.toHaveProperty('initial_value');
    expect(inputByBlockId(view, F.autoSnapshotFrequency.blockId)?.element).not.toHaveProperty(
      'initial_option',
    );
    expect(inputByBlockId(view, F.autoSnapshot.blockId)?.element).not.toHaveProperty('initial_options');
  });
});

describe('readUpdateMachineSubmission', () => {
  const values: ViewOutput['state']['values'] = {
    machine_name: { machine_name_input: { type: 'plain_text_input', value: 'gpu-1-renamed' } },
    shutdown_timeout: { shutdown_timeout_input: { type: 'number_input', value: '8' } },
    shutdown_options: { shutdown_options_input: { type: 'checkboxes', selected_options: [] } },
    auto_snapshot: { auto_snapshot_input: { type: 'checkboxes', selected_options: [selected('perform')] } },
    auto_snapshot_frequency: {
      auto_snapshot_frequency_input: { type: 'static_select', selected_option: null },
    },
    auto_snapshot_save_count: { auto_snapshot_save_count_input: { type: 'number_input', value: null } },
    public_ip: { public_ip_input: { type: 'checkboxes', selected_options: [selected('assign')] } },
  };

  it('sends unticked settings as false, leaves blank values out and sends assignPublicIp only when ticked', () => {
    expect(readUpdateMachineSubmission(values)).toEqual({
      machineName: 'gpu-1-renamed',
      shutdownTimeoutInHours: 8,
      shutdownTimeoutForces: false,
      performAutoSnapshot: true,
      dynamicPublicIp: false,
      assignPublicIp: true,
    });
    const unticked = {
      ...values,
      public_ip: { public_ip_input: { type: 'checkboxes', selected_options: [] } },
    };
    expect(readUpdateMachineSubmission(unticked)).not.toHaveProperty('assignPublicIp');
  });

  it('has a block for every parameter it reads', () => {
    for (const key of Object.keys(readUpdateMachineSubmission(values))) {
      expect(updateMachineFieldBlockIds).toHaveProperty(key);
    }
  });
});
