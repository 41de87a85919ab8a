import type { ViewOutput } from '@slack/bolt';
import type { StaticSelect } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { CreateMachineFields as F } from '../../../../src/features/machines/blocks/create-machine-fields.js';
import { createMachineModal } from '../../../../src/features/machines/blocks/create-machine-modal.js';
import {
  createMachineFieldBlockIds,
  readCreateMachineSubmission,
} from '../../../../src/features/machines/blocks/create-machine-submission.js';
import { errorsByBlock } from '../../../../src/slack/block-kit/view-state.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import {
  inputBlocks,
  inputByBlockId,
  networksFixture,
  scriptsFixture,
  selected,
  templatesFixture,
  usersFixture,
} from '../../../slack/block-kit/modal-fixtures.js';

function build(...args: Parameters<typeof createMachineModal>) {
  const view = createMachineModal(...args);
  assertBlockKitLimits(view);
  return view;
}

const select = (view: ReturnType<typeof build>, blockId: string) =>
  inputByBlockId(view, blockId)?.element as StaticSelect | undefined;

describe('createMachineModal', () => {
  it('offers region, machine types grouped by kind, templates, size, name and hourly billing', () => {
    const view = build({
      templates: templatesFixture(3),
      networks: [],
      scripts: [],
      isTeam: false,
      dialect: 'contract',
    });
    expect(view.callback_id).toBe(CallbackId.createMachine);
    expect(select(view, F.region.blockId)?.options?.map((o) => o.value)).toEqual([
      'West Coast (CA1)',
      'East Coast (NY2)',
      'Europe (AMS1)',
    ]);
    const groups = select(view, F.machineType.blockId)?.option_groups ?? [];
    expect(groups.map((g) => [g.label.text, g.options.length])).toEqual([
      ['GRID GPU · not with Ubuntu templates', 4],
      ['Dedicated GPU', 5],
      ['CPU · not with Windows templates', 10],
    ]);
    expect(select(view, F.template.blockId)?.options?.map((o) => o.value)).toEqual([
      'tmpl0',
      'tmpl1',
      'tmpl2',
    ]);
    // One billing type is no choice: it is said, not asked.
    expect(JSON.stringify(view.blocks)).not.toContain('billing_type');
    expect(JSON.stringify(view.blocks)).toContain('*Billing:* hourly');
    expect(inputByBlockId(view, F.startOnCreate.blockId)?.element).toMatchObject({
      initial_options: [{ value: 'start' }],
    });
    expect(inputByBlockId(view, F.network.blockId)).toBeUndefined();
    expect(inputByBlockId(view, F.existingUser.blockId)).toBeUndefined();
  });

  it('shows 100 of 150 templates within option limits and says how to reach the rest', () => {
    const view = build({
      templates: templatesFixture(150),
      networks: networksFixture(120),
      scripts: scriptsFixture(101),
      users: usersFixture(300),
      isTeam: true,
      dialect: 'contract',
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(select(view, F.template.blockId)?.options).toHaveLength(100);
    expect(inputByBlockId(view, F.template.blockId)?.hint?.text).toBe(
      'Showing the first 100 of 150 templates. For another, use /ps create with key=value pairs.',
    );
    expect(select(view, F.network.blockId)?.options).toHaveLength(100);
    expect(select(view, F.existingUser.blockId)?.options).toHaveLength(100);
  });

  it('asks a team administrator for an existing user or a new one', () => {
    const view = build({
      templates: [],
      networks: [],
      scripts: [],
      users: usersFixture(2),
      isTeam: true,
      dialect: 'contract',
    });
    const ids = inputBlocks(view).map((block) => block.block_id);
    for (const target of [
      F.existingUser,
      F.newUserEmail,
      F.newUserPassword,
      F.newUserFirstName,
      F.newUserLastName,
    ]) {
      expect(ids).toContain(target.blockId);
      expect(inputByBlockId(view, target.blockId)?.optional).toBe(true);
    }
    expect(inputByBlockId(view, F.template.blockId)?.element.type).toBe('plain_text_input');
  });

  it('makes every checkbox group optional so it can be submitted unticked', () => {
    const view = build({
      templates: templatesFixture(1),
      networks: [],
      scripts: [],
      isTeam: false,
      dialect: 'contract',
    });
    for (const block of inputBlocks(view).filter((b) => b.element.type === 'checkboxes')) {
      expect(block.optional).toBe(true);
    }
  });
});

// What Slack sends for a filled-in form: every input block, with nulls and empty lists for blanks.
const submitted: ViewOutput['state']['values'] = {
  region: { region_input: { type: 'static_select', selected_option: selected('Europe (AMS1)') } },
  machine_type: { machine_type_input: { type: 'static_select', selected_option: selected('P5000') } },
  template: { template_input: { type: 'static_select', selected_option: selected('tmpl1', 'Ubuntu 22.04') } },
  size: { size_input: { type: 'number_input', value: '100' } },
  machine_name: { machine_name_input: { type: 'plain_text_input', value: ' render-01 ' } },
  network: { network_input: { type: 'static_select', selected_option: null } },
  script: { script_input: { type: 'static_select', selected_option: selected('scr1', 'bootstrap-1') } },
  public_ip: { public_ip_input: { type: 'radio_buttons', selected_option: selected('dynamic', 'Dynamic') } },
  start_on_create: { start_on_create_input: { type: 'checkboxes', selected_options: [] } },
  user_id: { user_id_input: { type: 'static_select', selected_option: null } },
  new_user_email: { new_user_email_input: { type: 'email_text_input', value: 'grace@example.com' } },
  new_user_password: { new_user_password_input: { type: 'plain_text_input', value: ' correct horse ' } },
  new_user_first_name: { new_user_first_name_input: { type: 'plain_text_input', value: 'Grace' } },
  new_user_last_name: { new_user_last_name_input: { type: 'plain_text_input', value: 'Hopper' } },
  snapshot: {
    snapshot_input: {
      type: 'checkboxes',
      selected_options: [selected('take_initial_snapshot'), selected('mark_restore_point')],
    },
  },
  nvlink: { nvlink_input: { type: 'checkboxes', selected_options: [] } },
  notification_email: { notification_email_input: { type: 'email_text_input', value: null } },
};

describe('readCreateMachineSubmission', () => {
  it('turns the submitted form into the create parameters, leaving blanks out', () => {
    expect(readCreateMachineSubmission(submitted)).toEqual({
      region: 'Europe (AMS1)',
      machineType: 'P5000',
      templateId: 'tmpl1',
      size: 100,
      machineName: 'render-01',
      scriptId: 'scr1',
      dynamicPublicIp: true,
      startOnCreate: false,
      email: 'grace@example.com',
      password: ' correct horse ',
      firstName: 'Grace',
      lastName: 'Hopper',
      takeInitialSnapshot: true,
      markSnapshotAsRestorePoint: true,
      restorePointFrequency: 'shutdown',
      enableNvlink: false,
    });
  });

  it('maps a static IP and an existing user, and passes a non-numeric size on for validation', () => {
    const values = {
      ...submitted,
      size: { size_input: { type: 'number_input', value: 'lots' } },
      public_ip: { public_ip_input: { type: 'radio_buttons', selected_option: selected('static') } },
      user_id: { user_id_input: { type: 'static_select', selected_option: selected('usr7') } },
      new_user_email: { new_user_email_input: { type: 'email_text_input', value: null } },
    };
    const parameters = readCreateMachineSubmission(values);
    expect(parameters).toMatchObject({ size: 'lots', assignPublicIp: true, userId: 'usr7' });
    expect(parameters).not.toHaveProperty('dynamicPublicIp');
    expect(parameters).not.toHaveProperty('email');
  });

  it('places service errors on the block of their parameter and returns the rest', () => {
    const { network: _absent, ...withoutNetwork } = submitted;
    const result = errorsByBlock(
      {
        size: 'Size must be a number of GB.',
        assignPublicIp: 'Choose one kind of public IP.',
        networkId: 'Unknown network.',
        teamId: 'Missing team.',
      },
      createMachineFieldBlockIds,
      withoutNetwork,
    );
    expect(result).toEqual({
      errors: { size: 'Size must be a number of GB.', public_ip: 'Choose one kind of public IP.' },
      unplaced: { networkId: 'Unknown network.', teamId: 'Missing team.' },
    });
  });

  it('has a block for every parameter it reads', () => {
    expect(
      Object.keys(readCreateMachineSubmission(submitted)).every((key) => key in createMachineFieldBlockIds),
    ).toBe(true);
  });
});
