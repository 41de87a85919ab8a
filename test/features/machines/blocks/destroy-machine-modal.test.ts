import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  destroyConfirmationError,
  destroyMachineModal,
  DestroyMachineFields as F,
  readDestroyMachineSubmission,
} from '../../../../src/features/machines/blocks/destroy-machine-modal.js';
import { decodeModalMetadata } from '../../../../src/slack/block-kit/modal-metadata.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { MALICIOUS_NAME, machineFixture } from '../../../slack/block-kit/fixtures.js';
import { mrkdwnTexts } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { inputByBlockId, selected } from '../../../slack/block-kit/modal-fixtures.js';

describe('destroyMachineModal', () => {
  it('warns plainly, asks for the name, offers to release the IP and submits as Destroy', () => {
    const view = destroyMachineModal(machineFixture());
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.destroyMachine);
    expect(view.submit?.text).toBe('Destroy');
    expect(mrkdwnTexts(view.blocks)[0]).toMatch(
      /^🛑 \*This destroys gpu-1 for good\.\*.*cannot be undone\.$/,
    );
    expect(inputByBlockId(view, F.confirmName.blockId)?.label.text).toBe('Type gpu-1 to confirm');
    expect(inputByBlockId(view, F.releasePublicIp.blockId)?.optional).toBe(true);
    expect(decodeModalMetadata(view.private_metadata)).toMatchObject({
      machineId: 'psz9xmdl1',
      machineName: 'gpu-1',
    });
  });

  it('keeps a malicious name inert in the warning', () => {
    const view = destroyMachineModal(machineFixture({ name: MALICIOUS_NAME }));
    assertBlockKitLimits(view);
    expect(mrkdwnTexts(view.blocks).join('\n')).not.toMatch(/<(!channel|@U1|https)/);
  });
});

describe('destroy confirmation', () => {
  const values = (typed: string | null, release: boolean): ViewOutput['state']['values'] => ({
    confirm_name: { confirm_name_input: { type: 'plain_text_input', value: typed } },
    release_public_ip: {
      release_public_ip_input: { type: 'checkboxes', selected_options: release ? [selected('release')] : [] },
    },
  });

  it('reads the typed name and the release choice', () => {
    expect(readDestroyMachineSubmission(values('gpu-1 ', true))).toEqual({
      typedName: 'gpu-1 ',
      releasePublicIp: true,
    });
    expect(readDestroyMachineSubmission(values(null, false))).toEqual({
      typedName: '',
      releasePublicIp: false,
    });
  });

  it('accepts the exact name, forgiving surrounding spaces, and refuses anything else', () => {
    expect(destroyConfirmationError('gpu-1 ', 'gpu-1')).toBeUndefined();
    expect(destroyConfirmationError('GPU-1', 'gpu-1')).toBe(
      "That is not the machine's name. Type gpu-1 exactly to destroy it.",
    );
    expect(destroyConfirmationError('', 'gpu-1')).toBeDefined();
  });
});
