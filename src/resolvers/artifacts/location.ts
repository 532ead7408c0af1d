import { GraphQLError } from 'graphql';
import { explainArtifactError } from '../../transport/artifacts-download.js';
import { InvalidArtifactPath, type ArtifactsLocation } from '../../datasources/artifacts.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput, graphQLErrorFromRest } from '../../errors/graphql-errors.js';

/** An InvalidArtifactPath of the data source as the argument error it is (no REST call was made). */
export function refuseInvalidPath<T>(build: () => T, argumentName = 'path'): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof InvalidArtifactPath) throw badUserInput(error.message, argumentName);
    throw error;
  }
}

/**
 * REST's 400 (invalid artifact path) and 404 (no such job, no artifacts) as errors that say which
 * case it is; the code and REST's status and message stay those of the error table.
 */
export function explainArtifactFailure(error: unknown, location: ArtifactsLocation, artifactPath?: string): unknown {
  if (!(error instanceof RestError)) return error;
  const sentence = explainArtifactError(error, location, artifactPath);
  return sentence ? new GraphQLError(sentence, { extensions: { ...graphQLErrorFromRest(error).extensions } }) : error;
}
