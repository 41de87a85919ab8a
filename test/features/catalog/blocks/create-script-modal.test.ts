import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  createScriptFieldBlockIds,
  createScriptModal,
  CreateScriptFields as F,
  readCreateScriptSubmission,
} from '../../../../src/features/catalog/blocks/create-script-modal.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { machinesFixture } from '../../../slack/block-kit/fixtures.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { inputByBlockId, selected, selectOptions } from '../../../slack/block-kit/modal-fixtures.js';

describe('createScriptModal', () => {
  it('asks for name, description, the script (with both size limits), options and a machine', () => {
    const view = createScriptModal({ machines: machinesFixture(3) });
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.createScript);
    const script = inputByBlockId(view, F.text.blockId);
    expect(script?.element).toMatchObject({ type: 'plain_text_input', multiline: true, max_length: 3000 });
    expect(script?.hint?.text).toContain('Paperspace allows 16 KB; a Slack field holds 3000 characters.');
    expect(inputByBlockId(view, F.options.blockId)?.element).toMatchObject({
      initial_options: [{ value: 'enabled' }],
    });
    expect(selectOptions(view, F.machine.blockId)).toHaveLength(3);
  });

  it('offers at most 100 machines and leaves the machine out when there are none', () => {
    const many = createScriptModal({ machines: machinesFixture(130) });
    assertBlockKitLimits(many);
    expect(selectOptions(many, F.machine.blockId)).toHaveLength(100);
    expect(inputByBlockId(many, F.machine.blockId)?.hint?.text).toContain('100 of 130 machines');
    expect(inputByBlockId(createScriptModal({ machines: [] }), F.machine.blockId)).toBeUndefined();
  });

  it('reads the script create parameters with the script text exactly as typed', () => {
    const text = '#!/bin/bash\n  apt-get install -y nvidia-driver-535\n';
    const values: ViewOutput['state']['values'] = {
      script_name: { script_name_input: { type: 'plain_text_input', value: 'install-drivers' } },
      script_description: { script_description_input: { type: 'plain_text_input', value: null } },
      script_text: { script_text_input: { type: 'plain_text_input', value: text } },
      script_options: {
        script_options_input: { type: 'checkboxes', selected_options: [selected('run_once')] },
      },
      script_machine: {
        script_machine_input: { type: 'static_select', selected_option: selected('ps000001') },
      },
    };
    const parameters = readCreateScriptSubmission(values);
    expect(parameters).toEqual({
      scriptName: 'install-drivers',
      scriptText: text,
      isEnabled: false,
      runOnce: true,
      machineId: 'ps000001',
    });
    for (const key of Object.keys(parameters)) expect(createScriptFieldBlockIds).toHaveProperty(key);
  });
});
