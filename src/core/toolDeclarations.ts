import manifest from '../../package.json';
import type { ToolName } from './tool';

/**
 * One entry of package.json `contributes.languageModelTools`: the text a model reads before it calls a tool.
 * package.json is the one source of that text: VS Code reads it from there, the MCP server serves it as it is,
 * and the argument parsers of glob and grep take their argument descriptions from it (so their JSON Schema,
 * `z.toJSONSchema`, is the declared one, which a unit test checks).
 */
export interface ToolDeclaration {
  readonly name: string;
  readonly displayName: string;
  readonly modelDescription: string;
  /** A JSON Schema object: `properties` maps each argument to its schema, `description` included. */
  readonly inputSchema: { readonly type: 'object'; readonly properties: Readonly<Record<string, { readonly description: string }>> };
}

/**
 * The declaration of tool `name`. @throws Error when package.json declares no such tool (a build mistake,
 * caught by the unit tests).
 */
export function toolDeclaration(name: ToolName): ToolDeclaration {
  const declarations = manifest.contributes.languageModelTools as unknown as readonly ToolDeclaration[];
  const declared = declarations.find((d) => d.name === name);
  if (!declared) throw new Error(`${name} is not declared in package.json contributes.languageModelTools`);
  return declared;
}

/** The description package.json gives argument `argument` of tool `name`. @throws Error when it declares none. */
export function argumentDescription(name: ToolName, argument: string): string {
  const description = toolDeclaration(name).inputSchema.properties[argument]?.description;
  if (description === undefined) throw new Error(`package.json declares no argument ${argument} for ${name}`);
  return description;
}
