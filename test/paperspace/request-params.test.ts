import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/paperspace/errors.js';
import {
  createMachineParamsSchema,
  createMachineParamsSchemaFor,
  templateFamily,
} from '../../src/paperspace/request-params/machine-create-params.js';
import { updateMachineParamsSchema } from '../../src/paperspace/request-params/machine-params.js';
import { parseRequest, toRequestIssues } from '../../src/paperspace/request-params/parse-request.js';

const validCreate = {
  region: 'Europe (AMS1)',
  machineType: 'Air',
  size: 50,
  billingType: 'hourly',
  machineName: 'desk',
  templateId: 't1',
};

describe('templateFamily', () => {
  it.each([
    [{ os: 'Windows 10 (Server 2016)', name: 'tabc' }, 'windows'],
    [{ os: null, name: 'WINDOWS-2019-licensed' }, 'windows'],
    [{ os: 'Ubuntu 20.04.1 LTS', name: 'paperspace/t1' }, 'ubuntu'],
    [{ os: 'CentOS 7', name: 'custom' }, undefined],
  ])('reads %o as %s', (template, family) => {
    expect(templateFamily(template)).toBe(family);
  });
});

describe('request schemas shared with the Slack layer', () => {
  it('applies the template rules only when a template is known', () => {
    expect(createMachineParamsSchema.safeParse(validCreate).success).toBe(true);
    expect(createMachineParamsSchemaFor(undefined).safeParse(validCreate).success).toBe(true);
    const ubuntu = createMachineParamsSchemaFor({ os: 'Ubuntu 18.04' }).safeParse(validCreate);
    expect(ubuntu.success).toBe(false);
    expect(ubuntu.error && toRequestIssues(ubuntu.error)).toEqual([
      {
        field: 'machineType',
        message:
          'cannot be Air: Ubuntu templates (Ubuntu 18.04) cannot create Air, Standard, Pro or Advanced',
      },
    ]);
  });

  it("checks a v1 template's own catalog instead of the fixed list: its types, in any case, and its region", () => {
    const template = {
      id: 'tcustom1',
      name: 'Orbital ML base image',
      os: 'Ubuntu 22.04',
      machineTypes: ['A100', 'C4'],
      region: 'East Coast (NY2)',
    };
    const schema = createMachineParamsSchemaFor(template);
    const ampere = schema.safeParse({ ...validCreate, region: 'East Coast (NY2)', machineType: 'a100' });
    expect(ampere.success && ampere.data.machineType).toBe('A100');
    const refused = schema.safeParse({ ...validCreate, machineType: 'Air' });
    expect(refused.error && toRequestIssues(refused.error)).toEqual([
      {
        field: 'region',
        message: 'cannot be Europe (AMS1): template Orbital ML base image is only in East Coast (NY2)',
      },
      {
        field: 'machineType',
        message: 'cannot be Air: template Orbital ML base image offers A100, C4',
      },
    ]);
  });

  it('trims text values, so a pasted space does not become part of a name', () => {
    expect(updateMachineParamsSchema.parse({ machineName: '  gpu-2 ' })).toEqual({ machineName: 'gpu-2' });
  });

  it('says "is required" for a missing field and lists every problem at once', () => {
    const error = (() => {
      try {
        parseRequest(createMachineParamsSchema, { size: -3 }, 'machines.create', 'create a machine');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { field: 'region', message: 'is required' },
      { field: 'machineType', message: 'is required' },
      { field: 'size', message: 'must be a positive whole number' },
      { field: 'machineName', message: 'is required' },
      { field: 'templateId', message: 'is required' },
    ]);
    expect((error as Error).message).toMatch(
      /^Cannot create a machine: region is required; machineType is required; /,
    );
  });
});
