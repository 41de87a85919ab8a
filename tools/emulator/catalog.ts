// What the emulated cloud sells: hardware per machine type, prices, storage sizes and which dedicated
// GPU types each region stocks. The numbers are plausible, not Paperspace's price list; they only
// need to be stable so that utilization answers can be checked.
import {
  type DedicatedGpuMachineType,
  isCpuMachineType,
  isGridMachineType,
  MACHINE_DISK_SIZES_GB,
  MACHINE_TYPES,
  type MachineDiskSizeGb,
  type Region,
} from '../../src/paperspace/constants.js';

/**
 * Types only v1 sells: its catalog is each template's availableMachineTypes, not the contract's fixed
 * list, so a v1 create may name a type the contract never heard of.
 */
export const V1_ONLY_MACHINE_TYPES = ['A4000', 'A5000', 'A6000', 'A100', 'H100'] as const;
/** Every type the emulated cloud builds: the contract's and v1's own. */
export const EMULATOR_MACHINE_TYPES = [...MACHINE_TYPES, ...V1_ONLY_MACHINE_TYPES] as const;
export type EmulatorMachineType = (typeof EMULATOR_MACHINE_TYPES)[number];

/**
 * The types a template can create, the world's one rule for both dialects: Windows images run on
 * neither CPU-only types nor v1's own, Ubuntu images on no GRID type.
 */
export function offeredMachineTypes(template: { readonly family: TemplateFamily }): EmulatorMachineType[] {
  return EMULATOR_MACHINE_TYPES.filter((type) =>
    template.family === 'windows'
      ? !isCpuMachineType(type) && !(V1_ONLY_MACHINE_TYPES as readonly string[]).includes(type)
      : !isGridMachineType(type),
  );
}

export interface MachineSpec {
  readonly cpus: number;
  readonly ramGiB: number;
  readonly gpu: string | null;
  /** Price per hour, as the API's decimal string. */
  readonly hourlyRate: string;
}

export const MACHINE_SPECS: Readonly<Record<EmulatorMachineType, MachineSpec>> = {
  Air: { cpus: 2, ramGiB: 4, gpu: 'GRID M60-0B', hourlyRate: '0.07' },
  Standard: { cpus: 2, ramGiB: 8, gpu: 'GRID M60-1Q', hourlyRate: '0.40' },
  Pro: { cpus: 4, ramGiB: 16, gpu: 'GRID M60-2Q', hourlyRate: '0.65' },
  Advanced: { cpus: 8, ramGiB: 32, gpu: 'GRID M60-4Q', hourlyRate: '0.78' },
  'GPU+': { cpus: 8, ramGiB: 30, gpu: 'Quadro M4000', hourlyRate: '0.45' },
  P4000: { cpus: 8, ramGiB: 30, gpu: 'Quadro P4000', hourlyRate: '0.51' },
  P5000: { cpus: 8, ramGiB: 30, gpu: 'Quadro P5000', hourlyRate: '0.78' },
  P6000: { cpus: 8, ramGiB: 30, gpu: 'Quadro P6000', hourlyRate: '1.10' },
  V100: { cpus: 8, ramGiB: 30, gpu: 'Tesla V100', hourlyRate: '2.30' },
  C1: { cpus: 1, ramGiB: 0.5, gpu: null, hourlyRate: '0.0045' },
  C2: { cpus: 1, ramGiB: 1, gpu: null, hourlyRate: '0.009' },
  C3: { cpus: 2, ramGiB: 2, gpu: null, hourlyRate: '0.018' },
  C4: { cpus: 2, ramGiB: 4, gpu: null, hourlyRate: '0.036' },
  C5: { cpus: 4, ramGiB: 8, gpu: null, hourlyRate: '0.07' },
  C6: { cpus: 8, ramGiB: 16, gpu: null, hourlyRate: '0.14' },
  C7: { cpus: 12, ramGiB: 30, gpu: null, hourlyRate: '0.28' },
  C8: { cpus: 16, ramGiB: 60, gpu: null, hourlyRate: '0.56' },
  C9: { cpus: 24, ramGiB: 120, gpu: null, hourlyRate: '1.12' },
  C10: { cpus: 32, ramGiB: 244, gpu: null, hourlyRate: '2.24' },
  A4000: { cpus: 8, ramGiB: 45, gpu: 'RTX A4000', hourlyRate: '0.76' },
  A5000: { cpus: 8, ramGiB: 45, gpu: 'RTX A5000', hourlyRate: '1.38' },
  A6000: { cpus: 8, ramGiB: 45, gpu: 'RTX A6000', hourlyRate: '1.89' },
  A100: { cpus: 12, ramGiB: 90, gpu: 'A100', hourlyRate: '3.09' },
  H100: { cpus: 20, ramGiB: 250, gpu: 'H100', hourlyRate: '5.95' },
};

/**
 * The monthly price of each listed disk size (MACHINE_DISK_SIZES_GB, both
 * dialects). Paperspace's pricing page listed 50 GB to 2 TB; the sizes only v1 offers are priced at
 * 2 TB's rate per GB ($0.04), an assumption of the emulator, not a published price.
 */
const STORAGE_MONTHLY_RATE: Readonly<Record<MachineDiskSizeGb, string>> = {
  50: '5.00',
  100: '7.00',
  250: '10.00',
  500: '20.00',
  1000: '40.00',
  2000: '80.00',
  4000: '160.00',
  8000: '320.00',
  12000: '480.00',
  16000: '640.00',
};

/** 2 TB's price per GB, which the sizes no price list names are charged at (an assumption too). */
const UNLISTED_MONTHLY_RATE_PER_GB = 0.04;

/** The monthly price of a disk of `sizeGb`: a listed size's own, else 2 TB's rate per GB. */
export function storageMonthlyRate(sizeGb: number): string {
  const listed = STORAGE_MONTHLY_RATE[sizeGb as MachineDiskSizeGb] as string | undefined;
  return listed ?? (sizeGb * UNLISTED_MONTHLY_RATE_PER_GB).toFixed(2);
}

/** The sizes the contract's create accepts (v1 takes any size above 0). */
export const STORAGE_SIZES_GB: readonly number[] = MACHINE_DISK_SIZES_GB.contract;

export const GIB = 1024 ** 3;

/**
 * Which dedicated GPU types each region stocks, and whether they can be requested right now. A type
 * missing from a region's entry does not exist there (availability answers false).
 */
export const DEFAULT_AVAILABILITY: Readonly<
  Record<Region, Partial<Record<DedicatedGpuMachineType, boolean>>>
> = {
  'West Coast (CA1)': { 'GPU+': true, P4000: true, P5000: true, P6000: true, V100: true },
  'East Coast (NY2)': { 'GPU+': true, P4000: true, P5000: true, P6000: false, V100: true },
  'Europe (AMS1)': { P4000: true, P5000: true },
};

export type TemplateFamily = 'windows' | 'ubuntu';

/** Templates are Windows or Ubuntu; the family decides which machine types they can create. */
export function templateFamilyOf(os: string): TemplateFamily | null {
  if (/windows/i.test(os)) return 'windows';
  if (/ubuntu/i.test(os)) return 'ubuntu';
  return null;
}
