/**
 * The Lambdas of one stack's handlers: one function per distinct handler reference, wired from its
 * access profile (infra/access.ts), with one execution role per distinct profile inside the stack.
 * Functions that may do exactly the same share a role (least privilege is unchanged), which keeps
 * stacks well under CloudFormation's 500 resources.
 */
import type { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { accessFor, type Surface, type WiringResources, wireFunction } from '../access.ts';
import { createHandlerFunction, handlerConstructId } from './handler-function.ts';

export interface HandlerSizing {
  readonly memorySize?: number;
  readonly nodeModules?: string[];
  readonly timeout?: Duration;
}

export class HandlerFunctions {
  /** handler reference -> its Lambda */
  readonly functions = new Map<string, lambda.Function>();
  private readonly roles = new Map<string, iam.Role>();

  constructor(
    private readonly scope: Construct,
    private readonly options: { readonly bundle: boolean; readonly resources: WiringResources; readonly sizing?: Record<string, HandlerSizing>; readonly roleDescription: string },
  ) {}

  /** The Lambda of `handler` (created on first use) with the access of `surface` plus its overrides. */
  fn(handler: string, surface: Surface): lambda.Function {
    const existing = this.functions.get(handler);
    if (existing) return existing;
    const access = accessFor(handler, surface);
    const fn = createHandlerFunction(this.scope, handlerConstructId(handler), {
      handler,
      bundle: this.options.bundle,
      role: this.roleFor(JSON.stringify(access)),
      ...this.options.sizing?.[handler],
    });
    wireFunction(fn, access, this.options.resources);
    this.functions.set(handler, fn);
    return fn;
  }

  private roleFor(key: string): iam.Role {
    let role = this.roles.get(key);
    if (!role) {
      role = new iam.Role(this.scope, `HandlerRole${this.roles.size + 1}`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
        description: `${this.options.roleDescription} with access ${key}`.slice(0, 1000),
      });
      this.roles.set(key, role);
    }
    return role;
  }
}
