/**
 * `npm run dialect-gap`: how far the schema is from GitLab's own GraphQL dialect, measured on the
 * fields, arguments, inputs and enums GitLab's web frontend documents use
 * (test/fixtures/gitlab-graphql/gitlab-reference-types.json). Prints what is missing or typed
 * differently, and a summary line; output fields are compared by named type (the reference keeps
 * no wrappers), arguments and input fields by their whole type.
 */
import { readFileSync } from 'node:fs';
import { getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { buildSchemaFromFiles } from '../src/schema/sdl.js';

interface Reference {
  fields: Record<string, { type: string; args: Record<string, string> }>;
  inputs: Record<string, Record<string, string>>;
  enums: Record<string, string[]>;
}

const reference = JSON.parse(readFileSync(new URL('../test/fixtures/gitlab-graphql/gitlab-reference-types.json', import.meta.url), 'utf8')) as Reference;
const schema = buildSchemaFromFiles();
const gaps: string[] = [];
let fieldsPresent = 0;

for (const [key, spec] of Object.entries(reference.fields)) {
  const [typeName = '', fieldName = ''] = key.split('.');
  const type = schema.getType(typeName);
  const field = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[fieldName] : undefined;
  if (!field) {
    gaps.push(`field ${key} missing${type ? '' : ` (no type ${typeName})`}`);
    continue;
  }
  fieldsPresent++;
  if (getNamedType(field.type).name !== spec.type) gaps.push(`field ${key}: ${getNamedType(field.type).name} here, ${spec.type} in GitLab`);
  for (const [argumentName, argumentType] of Object.entries(spec.args)) {
    const argument = field.args.find((candidate) => candidate.name === argumentName);
    if (!argument) gaps.push(`argument ${key}(${argumentName}: ${argumentType}) missing`);
    else if (String(argument.type) !== argumentType) gaps.push(`argument ${key}(${argumentName}): ${String(argument.type)} here, ${argumentType} in GitLab`);
  }
}
for (const [inputName, fields] of Object.entries(reference.inputs)) {
  const input = schema.getType(inputName);
  if (!input || !isInputObjectType(input)) {
    gaps.push(`input ${inputName} missing`);
    continue;
  }
  const ours = input.getFields();
  for (const [fieldName, fieldType] of Object.entries(fields)) {
    const field = ours[fieldName];
    if (!field) gaps.push(`input field ${inputName}.${fieldName}: ${fieldType} missing`);
    else if (String(field.type) !== fieldType) gaps.push(`input field ${inputName}.${fieldName}: ${String(field.type)} here, ${fieldType} in GitLab`);
  }
}
for (const [enumName, values] of Object.entries(reference.enums)) {
  const type = schema.getType(enumName);
  if (!type || !isEnumType(type)) {
    gaps.push(`enum ${enumName} missing`);
    continue;
  }
  const ours = new Set(type.getValues().map((value) => value.name));
  const missing = values.filter((value) => !ours.has(value));
  if (missing.length > 0) gaps.push(`enum ${enumName} lacks ${missing.join(', ')}`);
}

const filter = process.argv[2];
for (const gap of gaps) if (!filter || gap.includes(filter)) console.log(gap);
console.log(`${fieldsPresent} of ${Object.keys(reference.fields).length} fields GitLab's frontend selects exist here; ${gaps.length} gaps.`);
