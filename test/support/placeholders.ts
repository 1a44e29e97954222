/**
 * Test tables are written before the world they run against exists, so they name its objects by placeholder (SCHOOL,
 * OTHER, FAR, ...). `placeholders(places)` returns `resolve`, which replaces every placeholder that stands as a whole
 * word, in a string or anywhere in a JSON value, by the id of the object `places()` names for it.
 */
export function placeholders(places: () => Record<string, { id: number }>) {
  return <T>(value: T): T => {
    const objects = places();
    const pattern = new RegExp(`\\b(${Object.keys(objects).join('|')})\\b`, 'g');
    const text = (s: string) => s.replace(pattern, (name) => String(objects[name]!.id));
    return (typeof value === 'string' ? text(value) : JSON.parse(text(JSON.stringify(value)))) as T;
  };
}
