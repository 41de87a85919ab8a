import { describe, expect, it } from 'vitest';
import { typedKeyValues, validateKeyValues } from '../../../src/features/machines/typed-key-values.js';
import { createMachineParamsSchema } from '../../../src/paperspace/request-params/machine-create-params.js';
import { updateMachineParamsSchema } from '../../../src/paperspace/request-params/machine-params.js';

describe('typedKeyValues', () => {
  it('turns numbers into numbers and yes/no/true/false into flags, by what the schema says each key is', () => {
    const result = typedKeyValues(
      {
        size: '250',
        startOnCreate: 'No',
        assignPublicIp: 'YES',
        enableNvlink: 'true',
        takeInitialSnapshot: 'false',
      },
      createMachineParamsSchema,
      'create',
    );
    expect(result).toEqual({
      ok: true,
      value: {
        size: 250,
        startOnCreate: false,
        assignPublicIp: true,
        enableNvlink: true,
        takeInitialSnapshot: false,
      },
    });
  });

  it('keeps text fields as typed, even when they look like numbers or flags', () => {
    const result = typedKeyValues(
      { machineName: '2024', templateId: 'yes' },
      createMachineParamsSchema,
      'create',
    );
    expect(result).toEqual({ ok: true, value: { machineName: '2024', templateId: 'yes' } });
  });

  it('matches keys whatever their case, under the name the API uses', () => {
    expect(typedKeyValues({ MACHINENAME: 'gpu-1', Size: '50' }, createMachineParamsSchema, 'create')).toEqual(
      {
        ok: true,
        value: { machineName: 'gpu-1', size: 50 },
      },
    );
  });

  it('clears a nullable field given as none or null', () => {
    expect(typedKeyValues({ autoSnapshotFrequency: 'None' }, updateMachineParamsSchema, 'update')).toEqual({
      ok: true,
      value: { autoSnapshotFrequency: null },
    });
    expect(typedKeyValues({ shutdownTimeoutInHours: 'none' }, updateMachineParamsSchema, 'update')).toEqual({
      ok: true,
      value: { shutdownTimeoutInHours: 'none' },
    });
  });

  it('refuses an unknown key by name, with the closest real one', () => {
    const result = typedKeyValues({ machineNmae: 'gpu-1' }, createMachineParamsSchema, 'create');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(
      /^Unknown key "machineNmae" for create\. Did you mean "machineName"\?/,
    );
  });

  it('refuses the same key given twice in different cases', () => {
    const result = typedKeyValues({ size: '50', SIZE: '100' }, createMachineParamsSchema, 'create');
    expect(result).toEqual({ ok: false, error: 'Key "size" is given twice (as "SIZE" too): give it once.' });
  });
});

describe('validateKeyValues', () => {
  it('names every key whose value does not convert, saying what it must be', () => {
    const typed = typedKeyValues(
      { size: 'big', startOnCreate: 'maybe' },
      createMachineParamsSchema,
      'create',
    );
    const result = validateKeyValues(createMachineParamsSchema, typed.ok ? typed.value : {});
    expect(result.ok).toBe(false);
    const error = result.ok ? '' : result.error;
    expect(error).toContain('size must be a positive whole number');
    expect(error).toContain('startOnCreate must be true or false');
    expect(error).toContain('region is required');
  });

  it('answers the parsed values when they are valid', () => {
    const result = validateKeyValues(updateMachineParamsSchema, {
      shutdownTimeoutInHours: 2,
      machineName: ' gpu ',
    });
    expect(result).toEqual({ ok: true, value: { shutdownTimeoutInHours: 2, machineName: 'gpu' } });
  });
});
