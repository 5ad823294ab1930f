import { RADIO_LOCALE } from '../../../../contracts/time';

const euro = new Intl.NumberFormat(RADIO_LOCALE, { style: 'currency', currency: 'EUR' });

/** €24.99 */
export const formatEuro = (amount: number) => euro.format(amount);
