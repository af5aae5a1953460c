/** The `<option>`s of a native select from [value, label] pairs, in order. */
export function Options({ options }: { options: ReadonlyArray<readonly [value: string | number, label: string]> }) {
  return (
    <>
      {options.map(([v, l]) => (
        <option key={v} value={v}>
          {l}
        </option>
      ))}
    </>
  );
}
