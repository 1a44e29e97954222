/**
 * @generated SignedSource<<2edb99a98b478d95cdd43a3a64f8aa5a>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type InviteType = "ANYONE_CAN_JOIN" | "INVITE_ONLY" | "REQUEST_TO_JOIN" | "%future added value";
export type PrivacyLevel = "BUILDING" | "CUSTOM" | "EVERYONE" | "GROUP" | "SCHOOL" | "%future added value";
export type UserErrorCode = "CONFLICT" | "INVALID" | "INVALID_FORMAT" | "NOT_FOUND" | "REQUIRED" | "TOO_LARGE" | "TOO_LONG" | "TOO_SHORT" | "TOO_SMALL" | "%future added value";
export type CreateGroupInput = {
  buildingId?: string | null | undefined;
  categoryId?: string | null | undefined;
  createDiscussion?: boolean | null | undefined;
  createFiles?: boolean | null | undefined;
  description?: string | null | undefined;
  groupCode?: string | null | undefined;
  inviteType?: InviteType | null | undefined;
  memberPost?: boolean | null | undefined;
  memberPostComment?: boolean | null | undefined;
  pictureUrl?: string | null | undefined;
  privacyLevel?: PrivacyLevel | null | undefined;
  schoolId?: string | null | undefined;
  title: string;
  website?: string | null | undefined;
};
export type relayCreateGroupMutation$variables = {
  connections: ReadonlyArray<string>;
  input: CreateGroupInput;
};
export type relayCreateGroupMutation$data = {
  readonly createGroup: {
    readonly group: {
      readonly id: string;
      readonly title: string;
    } | null | undefined;
    readonly userErrors: ReadonlyArray<{
      readonly code: UserErrorCode;
      readonly field: ReadonlyArray<string> | null | undefined;
      readonly message: string;
    }>;
  } | null | undefined;
};
export type relayCreateGroupMutation = {
  response: relayCreateGroupMutation$data;
  variables: relayCreateGroupMutation$variables;
};

const node: ConcreteRequest = (function(){
var v0 = {
  "defaultValue": null,
  "kind": "LocalArgument",
  "name": "connections"
},
v1 = {
  "defaultValue": null,
  "kind": "LocalArgument",
  "name": "input"
},
v2 = [
  {
    "kind": "Variable",
    "name": "input",
    "variableName": "input"
  }
],
v3 = {
  "alias": null,
  "args": null,
  "concreteType": "Group",
  "kind": "LinkedField",
  "name": "group",
  "plural": false,
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "id",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "title",
      "storageKey": null
    }
  ],
  "storageKey": null
},
v4 = {
  "alias": null,
  "args": null,
  "concreteType": "UserError",
  "kind": "LinkedField",
  "name": "userErrors",
  "plural": true,
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "field",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "code",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "message",
      "storageKey": null
    }
  ],
  "storageKey": null
};
return {
  "fragment": {
    "argumentDefinitions": [
      (v0/*:: as any*/),
      (v1/*:: as any*/)
    ],
    "kind": "Fragment",
    "metadata": null,
    "name": "relayCreateGroupMutation",
    "selections": [
      {
        "alias": null,
        "args": (v2/*:: as any*/),
        "concreteType": "CreateGroupPayload",
        "kind": "LinkedField",
        "name": "createGroup",
        "plural": false,
        "selections": [
          (v3/*:: as any*/),
          (v4/*:: as any*/)
        ],
        "storageKey": null
      }
    ],
    "type": "Mutation",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": [
      (v1/*:: as any*/),
      (v0/*:: as any*/)
    ],
    "kind": "Operation",
    "name": "relayCreateGroupMutation",
    "selections": [
      {
        "alias": null,
        "args": (v2/*:: as any*/),
        "concreteType": "CreateGroupPayload",
        "kind": "LinkedField",
        "name": "createGroup",
        "plural": false,
        "selections": [
          (v3/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "filters": null,
            "handle": "appendNode",
            "key": "",
            "kind": "LinkedHandle",
            "name": "group",
            "handleArgs": [
              {
                "kind": "Variable",
                "name": "connections",
                "variableName": "connections"
              },
              {
                "kind": "Literal",
                "name": "edgeTypeName",
                "value": "GroupEdge"
              }
            ]
          },
          (v4/*:: as any*/)
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "b02e926ece060d31aa9d441d47ee5067",
    "id": null,
    "metadata": {},
    "name": "relayCreateGroupMutation",
    "operationKind": "mutation",
    "text": "mutation relayCreateGroupMutation(\n  $input: CreateGroupInput!\n) {\n  createGroup(input: $input) {\n    group {\n      id\n      title\n    }\n    userErrors {\n      field\n      code\n      message\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "d13feaff1bff420037fdef5d12477078";

export default node;
