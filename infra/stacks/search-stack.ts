/**
 * Search stack: one Amazon OpenSearch Service domain for the search port of shared/ (tickets and
 * other `chorus-*` indexes, created lazily by the port). Functions reach it over HTTPS with SigV4
 * (service 'es'); the endpoint travels as SEARCH_ENDPOINT and the es:ESHttp* grants come from each
 * function's access profile (infra/access.ts, field `search`).
 *
 * - No VPC: a public endpoint, IAM-authorized. There is no domain access (resource) policy: in the
 *   same account the functions' identity policies alone allow their requests, and unsigned or
 *   ungranted requests are refused. (A resource policy would also need CDK's custom-resource Lambda.)
 * - Encryption at rest (AWS-owned key), node-to-node encryption, HTTPS only with TLS 1.2.
 * - Small by default (one t3.small.search data node, 10 GiB gp3): context `searchInstanceType`,
 *   `searchDataNodes`, `searchVolumeGiB` resize it (infra/build.ts). Zone awareness only when the
 *   node count splits evenly over 2 or 3 AZs; Multi-AZ with standby (cdk.json's flag turns it on
 *   by default; T3 does not support it, and it needs dedicated masters) stays off.
 * - RemovalPolicy.RETAIN like the table: the indexes hold copies of the organizations' tickets and
 *   messages, so deleting the stack must not delete them (they can be rebuilt from the table, but
 *   that is a deliberate step, not a side effect of `cdk destroy`). Engine upgrades happen in place
 *   (`enableVersionUpgrade`), not by replacing the domain.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type { Construct } from 'constructs';

/**
 * OpenSearch 2.19, the last 2.x line: every instance family (T3 included) supports it. 3.x is in
 * this aws-cdk-lib too; move there together with a check of the instance type's support.
 */
export const SEARCH_ENGINE_VERSION = opensearch.EngineVersion.OPENSEARCH_2_19;

export interface SearchStackProps extends StackProps {
  /** @default 't3.small.search' */
  readonly instanceType?: string;
  /** data nodes; a multiple of 3 (or 2) spreads them over 3 (or 2) AZs (zone awareness) @default 1 */
  readonly dataNodes?: number;
  /** EBS gp3 volume per data node, GiB @default 10 */
  readonly volumeGiB?: number;
}

export class SearchStack extends Stack {
  readonly domain: opensearch.Domain;

  constructor(scope: Construct, id: string, props: SearchStackProps = {}) {
    super(scope, id, props);

    const dataNodes = props.dataNodes ?? 1;
    if (!Number.isInteger(dataNodes) || dataNodes < 1) throw new Error(`searchDataNodes must be a positive integer, got ${dataNodes}`);
    // Zone awareness needs the node count to be a multiple of the AZ count.
    const zones = dataNodes % 3 === 0 ? 3 : dataNodes % 2 === 0 ? 2 : 1;

    this.domain = new opensearch.Domain(this, 'Domain', {
      version: SEARCH_ENGINE_VERSION,
      capacity: {
        dataNodes,
        dataNodeInstanceType: props.instanceType ?? 't3.small.search',
        multiAzWithStandbyEnabled: false,
      },
      zoneAwareness: zones > 1 ? { enabled: true, availabilityZoneCount: zones } : { enabled: false },
      ebs: { enabled: true, volumeSize: props.volumeGiB ?? 10, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      encryptionAtRest: { enabled: true },
      nodeToNodeEncryption: true,
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      enableVersionUpgrade: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    new CfnOutput(this, 'SearchEndpoint', {
      value: `https://${this.domain.domainEndpoint}`,
      description: 'OpenSearch domain endpoint (SEARCH_ENDPOINT of the search functions)',
    });
  }
}
