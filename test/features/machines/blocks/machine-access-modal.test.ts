import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  MachineAccessFields as F,
  machineAccessModal,
  readMachineAccessSubmission,
} from '../../../../src/features/machines/blocks/machine-access-modal.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { machineFixture } from '../../../slack/block-kit/fixtures.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { inputByBlockId, selected } from '../../../slack/block-kit/modal-fixtures.js';

describe('machineAccessModal', () => {
  it('asks for a Slack user or a Paperspace user id and grant or revoke, grant first', () => {
    const view = machineAccessModal(machineFixture());
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.machineAccess);
    expect(inputByBlockId(view, F.slackUser.blockId)?.element.type).toBe('users_select');
    expect(inputByBlockId(view, F.paperspaceUserId.blockId)?.optional).toBe(true);
    expect(inputByBlockId(view, F.change.blockId)?.element).toMatchObject({
      initial_option: { value: 'grant' },
    });
  });

  it('reads who and whether to grant or revoke', () => {
    const values: ViewOutput['state']['values'] = {
      slack_user: { slack_user_input: { type: 'users_select', selected_user: 'U024BE7LH' } },
      paperspace_user_id: { paperspace_user_id_input: { type: 'plain_text_input', value: null } },
      access_change: { access_change_input: { type: 'radio_buttons', selected_option: selected('revoke') } },
    };
    expect(readMachineAccessSubmission(values)).toEqual({
      slackUserId: 'U024BE7LH',
      paperspaceUserId: undefined,
      enableAccess: false,
    });
    const tampered = {
      ...values,
      access_change: { access_change_input: { type: 'radio_buttons', selected_option: selected('all') } },
    };
    expect(readMachineAccessSubmission(tampered).enableAccess).toBeUndefined();
  });
});
