// What kind of processor a machine type has, in the words a person picks a machine by. The contract's
// types come in three families (constants.ts); a type outside them (v1 sells its own) is not guessed at.
import { isCpuMachineType, isDedicatedGpuMachineType, isGridMachineType } from '../paperspace/constants.js';

/** `dedicated GPU`, `shared GRID GPU` or `CPU only, no GPU`; undefined for a type the bot does not know. */
export function processorOf(machineType: string): string | undefined {
  if (isDedicatedGpuMachineType(machineType)) return 'dedicated GPU';
  if (isGridMachineType(machineType)) return 'shared GRID GPU';
  if (isCpuMachineType(machineType)) return 'CPU only, no GPU';
  return undefined;
}
