// /ps script create: a startup script and, optionally, the machine that runs it.
import type { KnownBlock, ModalView } from '@slack/types';
import { SCRIPT_MAX_BYTES } from '../../../paperspace/constants.js';
import type { Machine } from '../../../paperspace/schemas.js';
import {
  checkboxesElement,
  field,
  input,
  modal,
  selectElement,
  shownOfHint,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { LIMITS, option } from '../../../slack/block-kit/text.js';
import {
  definedEntries,
  readCheckbox,
  readSecret,
  readString,
  type ViewStateValues,
} from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const CreateScriptFields = {
  name: field('script_name'),
  description: field('script_description'),
  text: field('script_text'),
  options: field('script_options'),
  machine: field('script_machine'),
} as const;

const CreateScriptOptions = { runOnce: 'run_once', enabled: 'enabled' } as const;

export interface CreateScriptModalInput {
  machines: Machine[];
  context?: ModalContext;
}

export function createScriptModal({ machines, context = {} }: CreateScriptModalInput): ModalView {
  const F = CreateScriptFields;
  const O = CreateScriptOptions;
  const assignable = machines.filter((machine) => machine.id.length <= LIMITS.optionValue);
  const blocks: KnownBlock[] = [
    input(F.name, 'Name', textElement({ placeholder: 'install-drivers', maxLength: 255 }), {
      hint: 'Script names are unique on the account.',
    }),
    input(F.description, 'Description', textElement({ maxLength: 1000 }), { optional: true }),
    input(F.text, 'Script', textElement({ multiline: true, maxLength: LIMITS.plainTextInput }), {
      hint:
        `Bash for Linux, PowerShell for Windows; runs when the machine starts. Paperspace allows ` +
        `${SCRIPT_MAX_BYTES / 1024} KB; a Slack field holds ${LIMITS.plainTextInput} characters.`,
    }),
    input(
      F.options,
      'Options',
      checkboxesElement(
        [
          option('Enabled', O.enabled),
          option('Run once', O.runOnce, 'On first boot only; otherwise on every boot'),
        ],
        [O.enabled],
      ),
      { optional: true },
    ),
  ];
  if (assignable.length > 0) {
    const options = assignable.map((machine) => option(machine.name, machine.id, machine.machineType));
    blocks.push(
      input(F.machine, 'Run on machine', selectElement(options), {
        optional: true,
        hint: shownOfHint(
          assignable.length,
          'machines',
          'Assign others later by creating the script with /ps.',
        ),
      }),
    );
  }
  return modal({
    callbackId: CallbackId.createScript,
    title: 'New startup script',
    submit: 'Create',
    privateMetadata: encodeModalMetadata(context),
    blocks,
  });
}

/** The block that shows an error about each script create parameter. */
export const createScriptFieldBlockIds: Record<string, string> = {
  scriptName: CreateScriptFields.name.blockId,
  scriptDescription: CreateScriptFields.description.blockId,
  scriptText: CreateScriptFields.text.blockId,
  isEnabled: CreateScriptFields.options.blockId,
  runOnce: CreateScriptFields.options.blockId,
  machineId: CreateScriptFields.machine.blockId,
};

/** The script create parameters, raw; the script text is kept exactly as typed. */
export function readCreateScriptSubmission(values: ViewStateValues): Record<string, unknown> {
  const F = CreateScriptFields;
  return definedEntries({
    scriptName: readString(values, F.name),
    scriptDescription: readString(values, F.description),
    scriptText: readSecret(values, F.text),
    isEnabled: readCheckbox(values, F.options, CreateScriptOptions.enabled),
    runOnce: readCheckbox(values, F.options, CreateScriptOptions.runOnce),
    machineId: readString(values, F.machine),
  });
}
