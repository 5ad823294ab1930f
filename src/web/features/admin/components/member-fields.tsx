import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../../contracts/tiers';
import { SelectField, TextField, type Option } from '../../../components/ui/form-controls';
import { SOURCE_OPTIONS, TIER_OPTIONS } from './options';

export interface SubscriptionValues {
  subscriptionTier: Tier;
  subscriptionStatus: SubscriptionStatus;
  subscriptionSource: SubscriptionSource;
}

/** Tier, status and source selects, as the create and edit forms show them. */
export function SubscriptionFields({
  values,
  statusOptions,
  onChange,
}: {
  values: SubscriptionValues;
  /** Create offers active/inactive/cancelled; edit offers every status so nothing changes silently. */
  statusOptions: readonly Option[];
  onChange: (patch: Partial<SubscriptionValues>) => void;
}) {
  return (
    <>
      <SelectField
        label="Tier"
        options={TIER_OPTIONS}
        value={values.subscriptionTier}
        onChange={(e) => onChange({ subscriptionTier: e.target.value as Tier })}
      />
      <SelectField
        label="Status"
        options={statusOptions}
        value={values.subscriptionStatus}
        onChange={(e) => onChange({ subscriptionStatus: e.target.value as SubscriptionStatus })}
      />
      <SelectField
        label="Source"
        options={SOURCE_OPTIONS}
        value={values.subscriptionSource}
        onChange={(e) => onChange({ subscriptionSource: e.target.value as SubscriptionSource })}
      />
    </>
  );
}

/** Whole days until the subscription ends; 0 (or empty) means no expiry. */
export function ExpiryDaysField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label="Expiry (days)"
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      placeholder="0 = no expiry"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
