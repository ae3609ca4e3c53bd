import pgResult from 'pg/lib/result.js';

/**
 * pg's results prepare, for every statement's row description, a template object with every column
 * set to null: the starting point of its object rows. The repositories ask for arrays (`rowMode:
 * 'array'`, sql.ts), which never use it, and for the ~90 columns of a token read with a pipeline and a
 * build, building it was a twentieth of a build's GET. Array results keep only what they use: the
 * columns and each column's parser, looked up as pg looks them up (once per list of columns: a statement
 * described once per connection hands the same list every time). Object results (MikroORM's) are
 * unchanged.
 */
const prototype = pgResult.prototype;
const addFieldsForObjects = prototype.addFields;

prototype.addFields = function addFields(this: PgResult, fieldDescriptions: PgFieldDescription[]) {
  const types = this._types;
  if (!this.rowAsArray || !types) {
    addFieldsForObjects.call(this, fieldDescriptions);
    return;
  }
  this.fields = fieldDescriptions;
  // A statement described once per connection (pg-described-statements.ts) hands the same list each time.
  const known = parsersByFields.get(fieldDescriptions);
  if (known?.types === types) {
    this._parsers = known.parsers;
    return;
  }
  const parsers = new Array<(value: string) => unknown>(fieldDescriptions.length);
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const description = fieldDescriptions[i]!;
    parsers[i] = types.getTypeParser(description.dataTypeID, description.format || 'text');
  }
  this._parsers = parsers;
  parsersByFields.set(fieldDescriptions, { types, parsers });
};

/** The parsers looked up for a list of columns, with the type overrides they were looked up in. */
const parsersByFields = new WeakMap<
  PgFieldDescription[],
  { types: NonNullable<PgResult['_types']>; parsers: Array<(value: string) => unknown> }
>();

interface PgFieldDescription {
  name: string;
  dataTypeID: number;
  format?: 'text' | 'binary';
}

interface PgResult {
  rowAsArray: boolean;
  fields: PgFieldDescription[];
  _parsers: Array<(value: string) => unknown> | undefined;
  _types: { getTypeParser(oid: number, format: string): (value: string) => unknown } | undefined;
}
