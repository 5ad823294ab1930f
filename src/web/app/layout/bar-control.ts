/** The top bar's controls are 44 px touch targets below the desktop layout (lg), 36 px beside the desktop nav. */
export const BAR_CONTROL = 'h-11 min-w-11 lg:h-9 lg:min-w-9';
