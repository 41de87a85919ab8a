// Paperspace's published hourly list prices per machine type: the last resort of every price the bot
// shows (after the machine's own rate and the rate of the account's machines of that type), so a
// request for a type nobody in the team has yet, or a card drawn without a rate call, still shows
// what the hour costs. A list price is not what an account pays (plans and agreements differ), and it
// goes stale, so wherever it is shown it is said to be a list price, with the month it was recorded.

/** The month the table below was recorded; shown beside every list price. Update both together. */
export const LIST_PRICES_RECORDED = '2024-05';

/** Dollars an hour, as the API writes rates ("0.51"). */
const HOURLY_LIST_PRICES: Readonly<Record<string, string>> = {
  Air: '0.07',
  Standard: '0.40',
  Pro: '0.65',
  Advanced: '0.78',
  'GPU+': '0.45',
  P4000: '0.51',
  P5000: '0.78',
  P6000: '1.10',
  V100: '2.30',
  C1: '0.0045',
  C2: '0.009',
  C3: '0.018',
  C4: '0.036',
  C5: '0.07',
  C6: '0.14',
  C7: '0.28',
  C8: '0.56',
  C9: '1.12',
  C10: '2.24',
  A4000: '0.76',
  A5000: '1.38',
  A6000: '1.89',
  A100: '3.09',
  H100: '5.95',
};

/** The published hourly list price of a machine type, in dollars as text; undefined for a type not listed. */
export function listPriceOf(machineType: string): string | undefined {
  return Object.hasOwn(HOURLY_LIST_PRICES, machineType) ? HOURLY_LIST_PRICES[machineType] : undefined;
}
