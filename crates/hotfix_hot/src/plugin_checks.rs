//! The checks that Heat's resource plugins make in their own `validate()` on the template's
//! property values alone, before a stack create, without asking a cloud: properties that exclude
//! each other, that need one another, of which one must be given, that only go with some value
//! of another, and a few relations between values.
//!
//! Heat declares none of them as data (each is code in a plugin's `validate()`), so this table is
//! written by hand from Heat's source (`heat/engine/resources/…` of the release that
//! [`crate::resource_types`] was read from). Each entry names the file and function, and gives a
//! template that breaks it and one that does not; a test runs both through Heat's own
//! `validate()` of that plugin (`scripts/heat_oracle.py`, `plugin_validate`), so every entry, its
//! condition and its text are Heat's. The texts are Heat's own messages, kept to quote them.
//!
//! ```
//! use hotfix_hot::plugin_checks::{self, Says};
//!
//! let port = plugin_checks::for_type("OS::Neutron::Port");
//! assert!(matches!(port[0].says, Says::Conflict(&["fixed_ips", "no_fixed_ips"])));
//! ```

/// One check of a plugin's `validate()`: when `when` holds for the values Heat reads in
/// `scope`, Heat refuses the stack with what `says` says.
#[derive(Debug)]
pub struct Check {
    /// Where Heat makes it: the file under `heat/engine/resources/` and the function.
    pub heat: &'static str,
    /// The mapping whose keys the names of `when` are.
    pub scope: Scope,
    /// The condition under which Heat refuses.
    pub when: Term,
    /// What Heat says.
    pub says: Says,
    /// Properties (JSON) with which Heat refuses with exactly this check, on top of the type's
    /// required properties; more than one when a deprecated name or a default matters. They may
    /// name other resources, which the test that runs them through Heat adds: `other` (an
    /// `OS::Heat::RandomString`), `lc` (an `AWS::AutoScaling::LaunchConfiguration`), `server`
    /// and `config_server` (`OS::Nova::Server`s, the second with `user_data_format:
    /// SOFTWARE_CONFIG`).
    pub bad: &'static [&'static str],
    /// Properties (JSON) that Heat accepts, beside `bad`.
    pub good: &'static str,
}

/// The mapping a check reads its names in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The resource's `properties`.
    Properties,
    /// Each item of this list-of-maps property (each is checked on its own).
    EachItem(&'static str),
    /// This map property, when it is given.
    Map(&'static str),
}

/// A condition on the values Heat reads: a property's value is what Heat makes of the template's
/// (converted to the property's type, a default where none is written, a deprecated name's value
/// under its current name).
#[derive(Debug)]
pub enum Term {
    /// The value is not `None` (a default counts, and so does a written `null`, which Heat
    /// converts to the type's empty value).
    Given(&'static str),
    /// The value is `None`: not written, and no default.
    Absent(&'static str),
    /// The value is true in Python (not empty, not zero, not false).
    Truthy(&'static str),
    /// The value is false in Python (`None`, empty, zero, false).
    Falsy(&'static str),
    /// The value equals one of these.
    Is(&'static str, &'static [Lit]),
    /// The value equals none of these (`None` included).
    IsNot(&'static str, &'static [Lit]),
    /// Both values are known and differ.
    Differ(&'static str, &'static str),
    /// Both values are numbers, the first greater.
    Greater(&'static str, &'static str),
    /// The value is a number greater than this.
    Above(&'static str, i64),
    /// The value is a list longer than this.
    LongerThan(&'static str, usize),
    /// All of them hold.
    All(&'static [Term]),
    /// One of them holds.
    Any(&'static [Term]),
    /// It does not hold.
    Not(&'static Term),
    /// The number of them that hold is within `min..=max`.
    Count {
        of: &'static [Term],
        min: usize,
        max: usize,
    },
    /// It holds in some item of this list-of-maps property.
    InAnyItem(&'static str, &'static Term),
    /// It holds in the properties of the resource that the property `by` refers to with
    /// `get_resource` (where a name the resource's type does not have reads as `None`).
    InReferenced {
        by: &'static str,
        term: &'static Term,
    },
    /// The map property has a key that is a property of the scope or one of `also`.
    ReservedKey {
        map: &'static str,
        also: &'static [&'static str],
    },
    /// The sum of the key's values in the items of each list (the key's default where an item
    /// has none) is greater than the value of `limit`.
    SumAbove {
        lists: &'static [(&'static str, &'static str)],
        limit: &'static str,
    },
}

/// A literal a value is compared with (Python's `==`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lit {
    Str(&'static str),
    Int(i64),
}

/// What Heat says when a check fails.
#[derive(Debug)]
pub enum Says {
    /// `ResourcePropertyConflict`: `Cannot define the following properties at the same time:
    /// a, b.`
    Conflict(&'static [&'static str]),
    /// `ResourcePropertyDependency`: `a cannot be specified without b.`
    Dependency(&'static str, &'static str),
    /// `ResourcePropertyValueDependency`: `a property should only be specified for b with value
    /// v.`
    ValueDependency(&'static str, &'static str, &'static str),
    /// `PropertyUnspecifiedError`: `At least one of the following properties must be specified:
    /// a, b.`
    Unspecified(&'static [&'static str]),
    /// Another text. `{resource}` is the resource's name, `{value:NAME}` the value of `NAME` in
    /// the scope (as Python prints it), `{truthy:A,B}` the Python list of those names whose value
    /// is true, `{ref:NAME}` the resource `NAME` refers to, `{reserved:MAP}` the keys of `MAP` that [`Term::ReservedKey`] finds (Heat lists
    /// several in no fixed order). `what` says it in hotfix's words.
    Text {
        heat: &'static str,
        what: &'static str,
    },
}

impl Says {
    /// Heat's text, when it has no placeholders.
    pub fn heat_text(&self) -> String {
        match self {
            Says::Conflict(names) => format!(
                "Cannot define the following properties at the same time: {}.",
                names.join(", ")
            ),
            Says::Dependency(a, b) => format!("{a} cannot be specified without {b}."),
            Says::ValueDependency(a, b, value) => {
                format!("{a} property should only be specified for {b} with value {value}.")
            }
            Says::Unspecified(names) => format!(
                "At least one of the following properties must be specified: {}.",
                names.join(", ")
            ),
            Says::Text { heat, .. } => (*heat).to_owned(),
        }
    }
}

/// The checks of the type's plugin, in the order Heat makes them; empty for a type without any
/// (or not registered).
pub fn for_type(name: &str) -> &'static [Check] {
    TYPES
        .binary_search_by(|(t, _)| (*t).cmp(name))
        .map_or(&[], |i| TYPES[i].1)
}

/// Every type with checks, sorted by name, and its checks.
pub fn all() -> &'static [(&'static str, &'static [Check])] {
    TYPES
}

use Lit::{Int, Str};
use Scope::{EachItem, Map, Properties};
use Term::{
    Above, Absent, All, Any, Count, Differ, Falsy, Given, Greater, InAnyItem, InReferenced, Is,
    IsNot, LongerThan, Not, ReservedKey, SumAbove, Truthy,
};

/// By type name, sorted.
static TYPES: &[(&str, &[Check])] = &[
    ("AWS::AutoScaling::AutoScalingGroup", AWS_AUTOSCALING_GROUP),
    (
        "AWS::AutoScaling::LaunchConfiguration",
        AWS_LAUNCH_CONFIGURATION,
    ),
    ("AWS::AutoScaling::ScalingPolicy", AWS_SCALING_POLICY),
    ("AWS::EC2::EIPAssociation", AWS_EIP_ASSOCIATION),
    ("AWS::EC2::Instance", AWS_INSTANCE),
    ("OS::Barbican::Order", BARBICAN_ORDER),
    ("OS::Barbican::Secret", BARBICAN_SECRET),
    ("OS::Cinder::Quota", CINDER_QUOTA),
    ("OS::Cinder::Volume", CINDER_VOLUME),
    ("OS::Cinder::VolumeType", CINDER_VOLUME_TYPE),
    ("OS::Designate::Zone", DESIGNATE_ZONE),
    ("OS::Glance::WebImage", GLANCE_WEB_IMAGE),
    ("OS::Heat::AutoScalingGroup", HEAT_AUTOSCALING_GROUP),
    ("OS::Heat::RandomString", HEAT_RANDOM_STRING),
    ("OS::Heat::ScalingPolicy", HEAT_SCALING_POLICY),
    ("OS::Heat::SoftwareDeployment", HEAT_SOFTWARE_DEPLOYMENT),
    ("OS::Heat::StructuredDeployment", HEAT_SOFTWARE_DEPLOYMENT),
    ("OS::Keystone::Group", KEYSTONE_ROLES),
    ("OS::Keystone::GroupRoleAssignment", KEYSTONE_ROLES),
    ("OS::Keystone::User", KEYSTONE_ROLES),
    ("OS::Keystone::UserRoleAssignment", KEYSTONE_ROLES),
    ("OS::Manila::ShareNetwork", MANILA_SHARE_NETWORK),
    ("OS::Mistral::CronTrigger", MISTRAL_CRON_TRIGGER),
    ("OS::Mistral::Workflow", MISTRAL_WORKFLOW),
    ("OS::Neutron::Firewall", NEUTRON_FIREWALL),
    ("OS::Neutron::FloatingIP", NEUTRON_FLOATING_IP),
    ("OS::Neutron::Net", NEUTRON_NET),
    ("OS::Neutron::NetworkGateway", NEUTRON_NETWORK_GATEWAY),
    ("OS::Neutron::Port", NEUTRON_PORT),
    ("OS::Neutron::ProviderNet", NEUTRON_PROVIDER_NET),
    ("OS::Neutron::Quota", NEUTRON_QUOTA),
    ("OS::Neutron::Router", NEUTRON_ROUTER),
    ("OS::Neutron::RouterInterface", NEUTRON_ROUTER_INTERFACE),
    ("OS::Neutron::SecurityGroup", NEUTRON_SECURITY_GROUP),
    (
        "OS::Neutron::SecurityGroupRule",
        NEUTRON_SECURITY_GROUP_RULE,
    ),
    ("OS::Neutron::Segment", NEUTRON_SEGMENT),
    ("OS::Neutron::Subnet", NEUTRON_SUBNET),
    ("OS::Neutron::SubnetPool", NEUTRON_SUBNET_POOL),
    ("OS::Nova::Quota", NOVA_QUOTA),
    ("OS::Nova::Server", NOVA_SERVER),
    ("OS::Octavia::L7Policy", OCTAVIA_L7_POLICY),
    ("OS::Octavia::L7Rule", OCTAVIA_L7_RULE),
    ("OS::Octavia::Listener", OCTAVIA_LISTENER),
    ("OS::Octavia::Pool", OCTAVIA_POOL),
    ("OS::Octavia::Quota", OCTAVIA_QUOTA),
    ("OS::Zun::Container", ZUN_CONTAINER),
];

static AWS_AUTOSCALING_GROUP: &[Check] = &[
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: Greater("MinSize", "MaxSize"),
        says: Says::Text {
            heat: "MinSize can not be greater than MaxSize",
            what: "`MinSize` is greater than `MaxSize`",
        },
        bad: &[
            r#"{"MinSize": 3, "MaxSize": 2, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
        ],
        good: r#"{"MinSize": 2, "MaxSize": 2, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
    },
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: All(&[
            Given("DesiredCapacity"),
            Any(&[
                Greater("MinSize", "DesiredCapacity"),
                Greater("DesiredCapacity", "MaxSize"),
            ]),
        ]),
        says: Says::Text {
            heat: "DesiredCapacity must be between MinSize and MaxSize",
            what: "`DesiredCapacity` is not between `MinSize` and `MaxSize`",
        },
        bad: &[
            r#"{"MinSize": 1, "MaxSize": 2, "DesiredCapacity": 3, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
            r#"{"MinSize": 1, "MaxSize": 2, "DesiredCapacity": 0, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
        ],
        good: r#"{"MinSize": 1, "MaxSize": 2, "DesiredCapacity": 2, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
    },
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: LongerThan("VPCZoneIdentifier", 1),
        says: Says::Text {
            heat: "Anything other than one VPCZoneIdentifier is not supported.",
            what: "`VPCZoneIdentifier` names more than one subnet",
        },
        bad: &[
            r#"{"MinSize": 1, "MaxSize": 2, "VPCZoneIdentifier": ["a", "b"], "LaunchConfigurationName": {"get_resource": "lc"}}"#,
        ],
        good: r#"{"MinSize": 1, "MaxSize": 2, "VPCZoneIdentifier": ["a"], "LaunchConfigurationName": {"get_resource": "lc"}}"#,
    },
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: Any(&[
            All(&[Truthy("InstanceId"), Truthy("LaunchConfigurationName")]),
            All(&[Falsy("InstanceId"), Falsy("LaunchConfigurationName")]),
        ]),
        says: Says::Text {
            heat: "Either 'InstanceId' or 'LaunchConfigurationName' must be provided.",
            what: "give exactly one of `InstanceId` and `LaunchConfigurationName`",
        },
        bad: &[
            r#"{"MinSize": 1, "MaxSize": 2}"#,
            r#"{"MinSize": 1, "MaxSize": 2, "InstanceId": "i", "LaunchConfigurationName": {"get_resource": "lc"}}"#,
        ],
        good: r#"{"MinSize": 1, "MaxSize": 2, "LaunchConfigurationName": {"get_resource": "lc"}}"#,
    },
];

static AWS_LAUNCH_CONFIGURATION: &[Check] = &[
    Check {
        heat: "aws/autoscaling/launch_config.py LaunchConfiguration.validate",
        scope: EachItem("BlockDeviceMappings"),
        when: Falsy("Ebs"),
        says: Says::Text {
            heat: "Ebs is missing, this is required when specifying BlockDeviceMappings.",
            what: "a block device mapping without `Ebs`",
        },
        bad: &[
            r#"{"ImageId": "i", "InstanceType": "t", "BlockDeviceMappings": [{"DeviceName": "vdb"}]}"#,
        ],
        good: r#"{"ImageId": "i", "InstanceType": "t", "BlockDeviceMappings": [{"DeviceName": "vdb", "Ebs": {"SnapshotId": "s"}}]}"#,
    },
    Check {
        heat: "aws/autoscaling/launch_config.py LaunchConfiguration.validate",
        scope: Properties,
        when: All(&[
            Falsy("InstanceId"),
            Any(&[Falsy("ImageId"), Falsy("InstanceType")]),
        ]),
        says: Says::Text {
            heat: "If without InstanceId, ImageId and InstanceType are required.",
            what: "without `InstanceId`, both `ImageId` and `InstanceType` are needed",
        },
        bad: &[r#"{"ImageId": "i"}"#, r#"{"InstanceType": "t"}"#],
        good: r#"{"ImageId": "i", "InstanceType": "t"}"#,
    },
];

static AWS_SCALING_POLICY: &[Check] = &[Check {
    heat: "aws/autoscaling/scaling_policy.py AWSScalingPolicy._validate_min_adjustment_step",
    scope: Properties,
    when: All(&[
        Given("MinAdjustmentStep"),
        IsNot("AdjustmentType", &[Str("PercentChangeInCapacity")]),
    ]),
    says: Says::ValueDependency(
        "MinAdjustmentStep",
        "AdjustmentType",
        "PercentChangeInCapacity",
    ),
    bad: &[r#"{"AdjustmentType": "ChangeInCapacity", "MinAdjustmentStep": 1}"#],
    good: r#"{"AdjustmentType": "PercentChangeInCapacity", "MinAdjustmentStep": 1}"#,
}];

static AWS_EIP_ASSOCIATION: &[Check] = &[
    Check {
        heat: "aws/ec2/eip.py ElasticIpAssociation.validate",
        scope: Properties,
        when: Any(&[
            All(&[Truthy("EIP"), Truthy("AllocationId")]),
            All(&[Falsy("EIP"), Falsy("AllocationId")]),
        ]),
        says: Says::Text {
            heat: "Either 'EIP' or 'AllocationId' must be provided.",
            what: "give exactly one of `EIP` and `AllocationId`",
        },
        bad: &[
            r#"{"InstanceId": "i"}"#,
            r#"{"InstanceId": "i", "EIP": "192.0.2.1", "AllocationId": "a"}"#,
        ],
        good: r#"{"InstanceId": "i", "AllocationId": "a"}"#,
    },
    Check {
        heat: "aws/ec2/eip.py ElasticIpAssociation.validate",
        scope: Properties,
        when: All(&[Truthy("EIP"), Falsy("InstanceId")]),
        says: Says::Text {
            heat: "Must specify 'InstanceId' if you specify 'EIP'.",
            what: "`EIP` needs `InstanceId`",
        },
        bad: &[r#"{"EIP": "192.0.2.1", "NetworkInterfaceId": "n"}"#],
        good: r#"{"EIP": "192.0.2.1", "InstanceId": "i"}"#,
    },
    Check {
        heat: "aws/ec2/eip.py ElasticIpAssociation.validate",
        scope: Properties,
        when: All(&[Falsy("InstanceId"), Falsy("NetworkInterfaceId")]),
        says: Says::Unspecified(&["InstanceId", "NetworkInterfaceId"]),
        bad: &[r#"{"AllocationId": "a"}"#],
        good: r#"{"AllocationId": "a", "NetworkInterfaceId": "n"}"#,
    },
];

static AWS_INSTANCE: &[Check] = &[
    Check {
        heat: "aws/ec2/instance.py Instance.validate",
        scope: Properties,
        when: All(&[
            Any(&[Truthy("SecurityGroups"), Truthy("SecurityGroupIds")]),
            Truthy("NetworkInterfaces"),
        ]),
        says: Says::Conflict(&["SecurityGroups/SecurityGroupIds", "NetworkInterfaces"]),
        bad: &[
            r#"{"ImageId": "i", "InstanceType": "t", "SecurityGroups": ["g"], "NetworkInterfaces": ["n"]}"#,
            r#"{"ImageId": "i", "InstanceType": "t", "SecurityGroupIds": ["g"], "NetworkInterfaces": ["n"]}"#,
        ],
        good: r#"{"ImageId": "i", "InstanceType": "t", "NetworkInterfaces": ["n"]}"#,
    },
    Check {
        heat: "aws/ec2/instance.py Instance.validate",
        scope: EachItem("BlockDeviceMappings"),
        when: Falsy("Ebs"),
        says: Says::Text {
            heat: "Ebs is missing, this is required when specifying BlockDeviceMappings.",
            what: "a block device mapping without `Ebs`",
        },
        bad: &[
            r#"{"ImageId": "i", "InstanceType": "t", "BlockDeviceMappings": [{"DeviceName": "vdb"}]}"#,
        ],
        good: r#"{"ImageId": "i", "InstanceType": "t", "BlockDeviceMappings": [{"DeviceName": "vdb", "Ebs": {"SnapshotId": "s"}}]}"#,
    },
];

static BARBICAN_ORDER: &[Check] = &[
    Check {
        heat: "openstack/barbican/order.py Order.validate",
        scope: Properties,
        when: All(&[
            IsNot("type", &[Str("certificate")]),
            Any(&[Absent("algorithm"), Absent("bit_length")]),
        ]),
        says: Says::Text {
            heat: "Properties algorithm and bit_length are required for {value:type} type of order.",
            what: "an order of this type needs `algorithm` and `bit_length`",
        },
        bad: &[r#"{"type": "key", "algorithm": "aes"}"#],
        good: r#"{"type": "key", "algorithm": "aes", "bit_length": 256}"#,
    },
    Check {
        heat: "openstack/barbican/order.py Order.validate",
        scope: Properties,
        when: All(&[
            Is("type", &[Str("certificate")]),
            Truthy("profile"),
            Falsy("ca_id"),
        ]),
        says: Says::Dependency("profile", "ca_id"),
        bad: &[r#"{"type": "certificate", "profile": "p"}"#],
        good: r#"{"type": "certificate", "profile": "p", "ca_id": "c"}"#,
    },
];

static BARBICAN_SECRET: &[Check] = &[
    Check {
        heat: "openstack/barbican/secret.py Secret.validate",
        scope: Properties,
        when: All(&[Truthy("payload_content_type"), Falsy("payload")]),
        says: Says::Dependency("payload_content_type", "payload"),
        bad: &[r#"{"payload_content_type": "text/plain"}"#],
        good: r#"{"payload_content_type": "text/plain", "payload": "p"}"#,
    },
    Check {
        heat: "openstack/barbican/secret.py Secret.validate",
        scope: Properties,
        when: All(&[
            Is("payload_content_type", &[Str("application/octet-stream")]),
            Truthy("payload"),
            Falsy("payload_content_encoding"),
        ]),
        says: Says::Text {
            heat: "Property unspecified. For 'application/octet-stream' value of \
                   'payload_content_type' property, 'payload_content_encoding' property must be \
                   specified.",
            what: "`payload_content_type: application/octet-stream` needs \
                   `payload_content_encoding`",
        },
        bad: &[r#"{"payload_content_type": "application/octet-stream", "payload": "cA=="}"#],
        good: r#"{"payload_content_type": "application/octet-stream", "payload": "cA==", "payload_content_encoding": "base64"}"#,
    },
    Check {
        heat: "openstack/barbican/secret.py Secret.validate",
        scope: Properties,
        when: All(&[
            Truthy("payload_content_encoding"),
            Any(&[
                Falsy("payload_content_type"),
                Is("payload_content_type", &[Str("text/plain")]),
            ]),
        ]),
        says: Says::ValueDependency(
            "payload_content_encoding",
            "payload_content_type",
            "application/octet-stream",
        ),
        bad: &[
            r#"{"payload": "cA==", "payload_content_encoding": "base64"}"#,
            r#"{"payload": "cA==", "payload_content_type": "text/plain", "payload_content_encoding": "base64"}"#,
        ],
        good: r#"{"payload": "cA==", "payload_content_type": "text/plain"}"#,
    },
];

static CINDER_QUOTA: &[Check] = &[Check {
    heat: "openstack/cinder/quota.py CinderQuota.validate",
    scope: Properties,
    when: All(&[
        Absent("gigabytes"),
        Absent("snapshots"),
        Absent("volumes"),
        Absent("backups"),
        Absent("backup_gigabytes"),
    ]),
    says: Says::Unspecified(&[
        "gigabytes",
        "snapshots",
        "volumes",
        "backups",
        "backup_gigabytes",
    ]),
    bad: &[r#"{"project": "p"}"#],
    good: r#"{"project": "p", "volumes": 10}"#,
}];

static CINDER_VOLUME: &[Check] = &[
    Check {
        heat: "openstack/cinder/volume.py CinderVolume._validate_create_sources",
        scope: Properties,
        when: All(&[
            Falsy("backup_id"),
            Absent("size"),
            Not(&All(&[
                Count {
                    of: &[Truthy("snapshot_id"), Truthy("source_volid")],
                    min: 1,
                    max: 1,
                },
                Falsy("image"),
            ])),
        ]),
        says: Says::Text {
            heat: "If neither \"backup_id\" nor \"size\" is provided, one and only one of \
                   \"source_volid\", \"snapshot_id\" must be specified, but currently specified \
                   options: {truthy:snapshot_id,source_volid,image}.",
            what: "a volume without `size` or `backup_id` needs exactly one of `snapshot_id` \
                   and `source_volid`, and no `image`",
        },
        bad: &[r#"{"image": "i"}"#, "{}", r#"{"imageRef": "i"}"#],
        good: r#"{"image": "i", "size": 1}"#,
    },
    Check {
        heat: "openstack/cinder/volume.py CinderVolume._validate_create_sources",
        scope: Properties,
        when: All(&[
            Falsy("backup_id"),
            Truthy("size"),
            Count {
                of: &[
                    Truthy("snapshot_id"),
                    Truthy("source_volid"),
                    Truthy("image"),
                ],
                min: 2,
                max: usize::MAX,
            },
        ]),
        says: Says::Text {
            heat: "If \"size\" is provided, only one of \"image\", \"imageRef\", \
                   \"source_volid\", \"snapshot_id\" can be specified, but currently specified \
                   options: {truthy:snapshot_id,source_volid,image}.",
            what: "a volume has one source at most: `image`, `source_volid` or `snapshot_id`",
        },
        bad: &[r#"{"size": 1, "image": "i", "snapshot_id": "s"}"#],
        good: r#"{"size": 1, "snapshot_id": "s"}"#,
    },
];

static CINDER_VOLUME_TYPE: &[Check] = &[Check {
    heat: "openstack/cinder/volume_type.py CinderVolumeType.validate",
    scope: Properties,
    when: All(&[Truthy("projects"), Truthy("is_public")]),
    says: Says::Text {
        heat: "Can not specify property \"projects\" if the volume type is public.",
        what: "`projects` is for a volume type that is not public (`is_public: false`)",
    },
    bad: &[
        r#"{"name": "t", "projects": ["p"]}"#,
        r#"{"name": "t", "projects": ["p"], "is_public": true}"#,
    ],
    good: r#"{"name": "t", "projects": ["p"], "is_public": false}"#,
}];

static DESIGNATE_ZONE: &[Check] = &[
    Check {
        heat: "openstack/designate/zone.py DesignateZone.validate",
        scope: Properties,
        when: All(&[Is("type", &[Str("PRIMARY")]), Falsy("email")]),
        says: Says::Text {
            heat: "Property email is required for zone type PRIMARY",
            what: "a `PRIMARY` zone (the default type) needs `email`",
        },
        bad: &[
            r#"{"name": "example.org."}"#,
            r#"{"name": "example.org.", "type": "PRIMARY"}"#,
        ],
        good: r#"{"name": "example.org.", "email": "admin@example.org"}"#,
    },
    Check {
        heat: "openstack/designate/zone.py DesignateZone.validate",
        scope: Properties,
        when: All(&[Is("type", &[Str("SECONDARY")]), Falsy("masters")]),
        says: Says::Text {
            heat: "Property masters is required for zone type SECONDARY",
            what: "a `SECONDARY` zone needs `primaries`",
        },
        bad: &[r#"{"name": "example.org.", "type": "SECONDARY"}"#],
        good: r#"{"name": "example.org.", "type": "SECONDARY", "primaries": ["192.0.2.1"]}"#,
    },
];

static GLANCE_WEB_IMAGE: &[Check] = &[
    Check {
        heat: "openstack/glance/image.py GlanceWebImage.validate",
        scope: Properties,
        when: All(&[
            Is("container_format", &[Str("ami"), Str("ari"), Str("aki")]),
            Differ("disk_format", "container_format"),
        ]),
        says: Says::Text {
            heat: "Invalid mix of disk and container formats. When setting a disk or container \
                   format to one of 'aki', 'ari', or 'ami', the container and disk formats must \
                   match.",
            what: "with an `aki`, `ari` or `ami` container, the disk format must be the same",
        },
        bad: &[r#"{"location": "http://x", "container_format": "ami", "disk_format": "raw"}"#],
        good: r#"{"location": "http://x", "container_format": "ami", "disk_format": "ami"}"#,
    },
    Check {
        heat: "openstack/glance/image.py GlanceWebImage.validate",
        scope: Properties,
        when: All(&[Truthy("members"), IsNot("visibility", &[Str("shared")])]),
        says: Says::ValueDependency("members", "visibility", "shared"),
        bad: &[
            r#"{"location": "http://x", "container_format": "bare", "disk_format": "raw", "members": ["p"]}"#,
        ],
        good: r#"{"location": "http://x", "container_format": "bare", "disk_format": "raw", "members": ["p"], "visibility": "shared"}"#,
    },
];

static HEAT_AUTOSCALING_GROUP: &[Check] = &[
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: Greater("min_size", "max_size"),
        says: Says::Text {
            heat: "MinSize can not be greater than MaxSize",
            what: "`min_size` is greater than `max_size`",
        },
        bad: &[r#"{"min_size": 3, "max_size": 2, "resource": {"type": "OS::Heat::None"}}"#],
        good: r#"{"min_size": 2, "max_size": 2, "resource": {"type": "OS::Heat::None"}}"#,
    },
    Check {
        heat: "aws/autoscaling/autoscaling_group.py AutoScalingGroup.validate",
        scope: Properties,
        when: All(&[
            Given("desired_capacity"),
            Any(&[
                Greater("min_size", "desired_capacity"),
                Greater("desired_capacity", "max_size"),
            ]),
        ]),
        says: Says::Text {
            heat: "DesiredCapacity must be between MinSize and MaxSize",
            what: "`desired_capacity` is not between `min_size` and `max_size`",
        },
        bad: &[
            r#"{"min_size": 1, "max_size": 2, "desired_capacity": 3, "resource": {"type": "OS::Heat::None"}}"#,
            r#"{"min_size": 1, "max_size": 2, "desired_capacity": 0, "resource": {"type": "OS::Heat::None"}}"#,
        ],
        good: r#"{"min_size": 1, "max_size": 2, "desired_capacity": 1, "resource": {"type": "OS::Heat::None"}}"#,
    },
];

static HEAT_RANDOM_STRING: &[Check] = &[Check {
    heat: "openstack/heat/random_string.py RandomString.validate",
    scope: Properties,
    when: SumAbove {
        lists: &[("character_classes", "min"), ("character_sequences", "min")],
        limit: "length",
    },
    says: Says::Text {
        heat: "Length property cannot be smaller than combined character class and character \
               sequence minimums",
        what: "`length` is smaller than the sum of the minimums of `character_classes` and \
               `character_sequences`",
    },
    bad: &[
        r#"{"length": 2, "character_classes": [{"class": "digits", "min": 3}]}"#,
        r#"{"length": 1, "character_sequences": [{"sequence": "!"}]}"#,
        r#"{"length": 1, "sequence": "digits", "character_sequences": [{"sequence": "!"}]}"#,
    ],
    good: r#"{"length": 3, "character_classes": [{"class": "digits", "min": 3}]}"#,
}];

static HEAT_SCALING_POLICY: &[Check] = &[Check {
    heat: "openstack/heat/scaling_policy.py AutoScalingPolicy._validate_min_adjustment_step",
    scope: Properties,
    when: All(&[
        Given("min_adjustment_step"),
        IsNot("adjustment_type", &[Str("percent_change_in_capacity")]),
    ]),
    says: Says::ValueDependency(
        "min_adjustment_step",
        "adjustment_type",
        "percent_change_in_capacity",
    ),
    bad: &[r#"{"adjustment_type": "change_in_capacity", "min_adjustment_step": 1}"#],
    good: r#"{"adjustment_type": "percent_change_in_capacity", "min_adjustment_step": 1}"#,
}];

/// The server of a deployment, as `get_resource` names it in the same template.
static HEAT_SOFTWARE_DEPLOYMENT: &[Check] = &[Check {
    heat: "openstack/heat/software_deployment.py SoftwareDeployment.validate",
    scope: Properties,
    when: InReferenced {
        by: "server",
        term: &All(&[
            Truthy("user_data_format"),
            IsNot("user_data_format", &[Str("SOFTWARE_CONFIG")]),
        ]),
    },
    says: Says::Text {
        heat: "Resource {ref:server}'s property user_data_format should be set to \
               SOFTWARE_CONFIG since there are software deployments on it.",
        what: "the deployment's server needs `user_data_format: SOFTWARE_CONFIG` (its default \
               is HEAT_CFNTOOLS)",
    },
    bad: &[r#"{"config": "c", "server": {"get_resource": "server"}}"#],
    good: r#"{"config": "c", "server": {"get_resource": "config_server"}}"#,
}];

static KEYSTONE_ROLES: &[Check] = &[
    Check {
        heat: "openstack/keystone/role_assignments.py \
               KeystoneRoleAssignmentMixin.validate_assignment_properties",
        scope: EachItem("roles"),
        when: All(&[Given("project"), Given("domain")]),
        says: Says::Conflict(&["project", "domain"]),
        bad: &[r#"{"roles": [{"role": "r", "project": "p", "domain": "d"}]}"#],
        good: r#"{"roles": [{"role": "r", "project": "p"}]}"#,
    },
    Check {
        heat: "openstack/keystone/role_assignments.py \
               KeystoneRoleAssignmentMixin.validate_assignment_properties",
        scope: EachItem("roles"),
        when: All(&[Absent("project"), Absent("domain")]),
        says: Says::Text {
            heat: "Either project or domain must be specified for role {value:role}",
            what: "a role needs `project` or `domain`",
        },
        bad: &[r#"{"roles": [{"role": "r"}]}"#],
        good: r#"{"roles": [{"role": "r", "domain": "d"}]}"#,
    },
];

static MANILA_SHARE_NETWORK: &[Check] = &[
    Check {
        heat: "openstack/manila/share_network.py ManilaShareNetwork.validate",
        scope: Properties,
        when: Truthy("nova_network"),
        says: Says::Text {
            heat: "Nova network is no longer supported",
            what: "`nova_network` is no longer supported",
        },
        bad: &[r#"{"nova_network": "n"}"#],
        good: "{}",
    },
    Check {
        heat: "openstack/manila/share_network.py ManilaShareNetwork.validate",
        scope: Properties,
        when: All(&[Truthy("neutron_network"), Falsy("neutron_subnet")]),
        says: Says::Dependency("neutron_network", "neutron_subnet"),
        bad: &[r#"{"neutron_network": "n"}"#],
        good: r#"{"name": "n"}"#,
    },
];

static MISTRAL_CRON_TRIGGER: &[Check] = &[Check {
    heat: "openstack/mistral/cron_trigger.py CronTrigger.validate",
    scope: Properties,
    when: All(&[Falsy("pattern"), Falsy("first_time")]),
    says: Says::Unspecified(&["pattern", "first_time"]),
    bad: &[r#"{"workflow": {"name": "w"}}"#],
    good: r#"{"workflow": {"name": "w"}, "pattern": "* * * * *"}"#,
}];

static MISTRAL_WORKFLOW: &[Check] = &[
    Check {
        heat: "openstack/mistral/workflow.py Workflow.validate",
        scope: EachItem("tasks"),
        when: All(&[Truthy("workflow"), Truthy("action")]),
        says: Says::Conflict(&["workflow", "action"]),
        bad: &[r#"{"type": "direct", "tasks": [{"name": "t", "workflow": "w", "action": "a"}]}"#],
        good: r#"{"type": "direct", "tasks": [{"name": "t", "action": "a"}]}"#,
    },
    Check {
        heat: "openstack/mistral/workflow.py Workflow.validate",
        scope: EachItem("tasks"),
        when: All(&[Falsy("workflow"), Falsy("action")]),
        says: Says::Unspecified(&["workflow", "action"]),
        bad: &[r#"{"type": "direct", "tasks": [{"name": "t"}]}"#],
        good: r#"{"type": "direct", "tasks": [{"name": "t", "workflow": "w"}]}"#,
    },
];

/// `NeutronResource.validate` returns this text instead of raising it: only the types whose
/// `validate()` it is (not one of a subclass, which drops it) refuse.
static NEUTRON_FIREWALL: &[Check] = &[Check {
    heat: "openstack/neutron/neutron.py NeutronResource.validate_properties",
    scope: Properties,
    when: ReservedKey {
        map: "value_specs",
        also: &["shared", "tenant_id"],
    },
    says: Says::Text {
        heat: "{reserved:value_specs} not allowed in value_specs",
        what: "`value_specs` repeats a property, or `shared` or `tenant_id`",
    },
    bad: &[
        r#"{"firewall_policy_id": "p", "value_specs": {"tenant_id": "t"}}"#,
        r#"{"firewall_policy_id": "p", "value_specs": {"name": "n"}}"#,
    ],
    good: r#"{"firewall_policy_id": "p", "value_specs": {"router_ids": ["r"]}}"#,
}];

static NEUTRON_FLOATING_IP: &[Check] = &[Check {
    heat: "openstack/neutron/floatingip.py FloatingIP.validate",
    scope: Properties,
    when: All(&[Absent("port_id"), Given("fixed_ip_address")]),
    says: Says::Dependency("fixed_ip_address", "port_id"),
    bad: &[r#"{"floating_network": "public", "fixed_ip_address": "10.0.0.5"}"#],
    good: r#"{"floating_network": "public", "fixed_ip_address": "10.0.0.5", "port_id": "p"}"#,
}];

/// As [`NEUTRON_FIREWALL`].
static NEUTRON_NET: &[Check] = &[Check {
    heat: "openstack/neutron/neutron.py NeutronResource.validate_properties",
    scope: Properties,
    when: ReservedKey {
        map: "value_specs",
        also: &["shared", "tenant_id"],
    },
    says: Says::Text {
        heat: "{reserved:value_specs} not allowed in value_specs",
        what: "`value_specs` repeats a property, or `shared` or `tenant_id`",
    },
    bad: &[
        r#"{"value_specs": {"shared": true}}"#,
        r#"{"value_specs": {"port_security_enabled": false, "provider:network_type": "vlan"}}"#,
    ],
    good: r#"{"value_specs": {"provider:network_type": "vlan"}}"#,
}];

static NEUTRON_NETWORK_GATEWAY: &[Check] = &[
    Check {
        heat: "openstack/neutron/network_gateway.py NetworkGateway.validate",
        scope: EachItem("connections"),
        when: All(&[
            Is("segmentation_type", &[Str("vlan")]),
            Absent("segmentation_id"),
        ]),
        says: Says::Text {
            heat: "segmentation_id must be specified for using vlan",
            what: "a `vlan` connection needs `segmentation_id`",
        },
        bad: &[
            r#"{"devices": [{"id": "d", "interface_name": "i"}], "connections": [{"network": "n", "segmentation_type": "vlan"}]}"#,
        ],
        good: r#"{"devices": [{"id": "d", "interface_name": "i"}], "connections": [{"network": "n", "segmentation_type": "vlan", "segmentation_id": 10}]}"#,
    },
    Check {
        heat: "openstack/neutron/network_gateway.py NetworkGateway.validate",
        scope: EachItem("connections"),
        when: All(&[
            Is("segmentation_type", &[Str("flat")]),
            Truthy("segmentation_id"),
        ]),
        says: Says::Text {
            heat: "segmentation_id cannot be specified except 0 for using flat",
            what: "a `flat` connection (the default type) takes no `segmentation_id` but 0",
        },
        bad: &[
            r#"{"devices": [{"id": "d", "interface_name": "i"}], "connections": [{"network": "n", "segmentation_id": 10}]}"#,
        ],
        good: r#"{"devices": [{"id": "d", "interface_name": "i"}], "connections": [{"network": "n", "segmentation_id": 0}]}"#,
    },
];

static NEUTRON_PORT: &[Check] = &[Check {
    heat: "openstack/neutron/port.py Port.validate",
    scope: Properties,
    when: All(&[Truthy("fixed_ips"), Truthy("no_fixed_ips")]),
    says: Says::Conflict(&["fixed_ips", "no_fixed_ips"]),
    bad: &[r#"{"network": "n", "fixed_ips": [{"ip_address": "10.0.0.5"}], "no_fixed_ips": true}"#],
    good: r#"{"network": "n", "no_fixed_ips": true}"#,
}];

static NEUTRON_PROVIDER_NET: &[Check] = &[
    Check {
        heat: "openstack/neutron/provider_net.py ProviderNet.validate",
        scope: Properties,
        when: All(&[
            Truthy("segmentation_id"),
            Is("network_type", &[Str("local"), Str("flat")]),
        ]),
        says: Says::Text {
            heat: "segmentation_id not allowed for network types: local, flat",
            what: "a `local` or `flat` network takes no `segmentation_id`",
        },
        bad: &[r#"{"network_type": "flat", "segmentation_id": "10"}"#],
        good: r#"{"network_type": "vlan", "segmentation_id": "10"}"#,
    },
    Check {
        heat: "openstack/neutron/provider_net.py ProviderNet.validate",
        scope: Properties,
        when: All(&[
            Truthy("physical_network"),
            Is(
                "network_type",
                &[Str("vxlan"), Str("gre"), Str("geneve"), Str("local")],
            ),
        ]),
        says: Says::Text {
            heat: "physical_network not allowed for network types: vxlan, gre, geneve, flat",
            what: "a `vxlan`, `gre`, `geneve` or `local` network takes no `physical_network`",
        },
        bad: &[r#"{"network_type": "vxlan", "physical_network": "p"}"#],
        good: r#"{"network_type": "flat", "physical_network": "p"}"#,
    },
];

static NEUTRON_QUOTA: &[Check] = &[Check {
    heat: "openstack/neutron/quota.py NeutronQuota.validate",
    scope: Properties,
    when: All(&[
        Absent("floatingip"),
        Absent("network"),
        Absent("port"),
        Absent("rbac_policy"),
        Absent("router"),
        Absent("security_group"),
        Absent("security_group_rule"),
        Absent("subnet"),
        Absent("subnetpool"),
    ]),
    says: Says::Unspecified(&[
        "floatingip",
        "network",
        "port",
        "rbac_policy",
        "router",
        "security_group",
        "security_group_rule",
        "subnet",
        "subnetpool",
    ]),
    bad: &[r#"{"project": "p"}"#],
    good: r#"{"project": "p", "port": 10}"#,
}];

static NEUTRON_ROUTER: &[Check] = &[
    Check {
        heat: "openstack/neutron/router.py Router.validate",
        scope: Properties,
        when: All(&[Truthy("distributed"), Truthy("l3_agent_ids")]),
        says: Says::Conflict(&["distributed", "l3_agent_id/l3_agent_ids"]),
        bad: &[
            r#"{"distributed": true, "l3_agent_ids": ["a"]}"#,
            r#"{"distributed": true, "l3_agent_id": "a"}"#,
        ],
        good: r#"{"distributed": true}"#,
    },
    Check {
        heat: "openstack/neutron/router.py Router.validate",
        scope: Properties,
        when: All(&[Truthy("ha"), Truthy("distributed")]),
        says: Says::Conflict(&["distributed", "ha"]),
        bad: &[r#"{"distributed": true, "ha": true}"#],
        good: r#"{"distributed": true, "ha": false}"#,
    },
    Check {
        heat: "openstack/neutron/router.py Router.validate",
        scope: Properties,
        when: All(&[Falsy("ha"), LongerThan("l3_agent_ids", 1)]),
        says: Says::Text {
            heat: "Non HA routers can only have one L3 agent.",
            what: "a router that is not HA (`ha: true`) takes one L3 agent",
        },
        bad: &[r#"{"l3_agent_ids": ["a", "b"]}"#],
        good: r#"{"l3_agent_ids": ["a", "b"], "ha": true}"#,
    },
];

static NEUTRON_ROUTER_INTERFACE: &[Check] = &[
    Check {
        heat: "openstack/neutron/router.py RouterInterface.validate",
        scope: Properties,
        when: All(&[Given("subnet"), Given("port")]),
        says: Says::Conflict(&["subnet", "port"]),
        bad: &[
            r#"{"router": "r", "subnet": "s", "port": "p"}"#,
            r#"{"router": "r", "subnet_id": "s", "port_id": "p"}"#,
        ],
        good: r#"{"router": "r", "subnet": "s"}"#,
    },
    Check {
        heat: "openstack/neutron/router.py RouterInterface.validate",
        scope: Properties,
        when: All(&[Absent("subnet"), Absent("port")]),
        says: Says::Unspecified(&["subnet", "port"]),
        bad: &[r#"{"router": "r"}"#],
        good: r#"{"router": "r", "port": "p"}"#,
    },
];

static NEUTRON_SECURITY_GROUP: &[Check] = &[Check {
    heat: "openstack/neutron/security_group.py SecurityGroup.validate",
    scope: Properties,
    when: Is("name", &[Str("default")]),
    says: Says::Text {
        heat: "Security groups cannot be assigned the name \"default\".",
        what: "a security group cannot be named `default`",
    },
    bad: &[r#"{"name": "default"}"#],
    good: r#"{"name": "web"}"#,
}];

static NEUTRON_SECURITY_GROUP_RULE: &[Check] = &[
    Check {
        heat: "openstack/neutron/security_group_rule.py SecurityGroupRule.validate",
        scope: Properties,
        when: All(&[Given("remote_group"), Given("remote_ip_prefix")]),
        says: Says::Conflict(&["remote_group", "remote_ip_prefix"]),
        bad: &[r#"{"security_group": "g", "remote_group": "h", "remote_ip_prefix": "10.0.0.0/8"}"#],
        good: r#"{"security_group": "g", "remote_group": "h"}"#,
    },
    Check {
        heat: "openstack/neutron/security_group_rule.py SecurityGroupRule.validate",
        scope: Properties,
        when: All(&[
            IsNot("protocol", &[Str("icmp"), Str("icmpv6"), Str("ipv6-icmp")]),
            Greater("port_range_min", "port_range_max"),
        ]),
        says: Says::Text {
            heat: "The minimum port number must be less than or equal to the maximum port number.",
            what: "`port_range_min` is greater than `port_range_max`",
        },
        bad: &[
            r#"{"security_group": "g", "port_range_min": 80, "port_range_max": 22}"#,
            r#"{"security_group": "g", "protocol": "tcp", "port_range_min": 80, "port_range_max": 22}"#,
        ],
        good: r#"{"security_group": "g", "protocol": "icmp", "port_range_min": 80, "port_range_max": 22}"#,
    },
];

static NEUTRON_SEGMENT: &[Check] = &[
    Check {
        heat: "openstack/neutron/segment.py Segment.validate",
        scope: Properties,
        when: All(&[
            Is("network_type", &[Str("flat"), Str("vlan")]),
            Absent("physical_network"),
        ]),
        says: Says::Text {
            heat: "physical_network is required for {value:network_type} provider network.",
            what: "a `flat` or `vlan` segment needs `physical_network`",
        },
        bad: &[
            r#"{"network": "n", "network_type": "flat"}"#,
            r#"{"network": "n", "network_type": "vlan", "segmentation_id": 10}"#,
        ],
        good: r#"{"network": "n", "network_type": "flat", "physical_network": "p"}"#,
    },
    Check {
        heat: "openstack/neutron/segment.py Segment.validate",
        scope: Properties,
        when: All(&[
            Is("network_type", &[Str("vlan")]),
            Absent("segmentation_id"),
        ]),
        says: Says::Text {
            heat: "segmentation_id is required for vlan provider network.",
            what: "a `vlan` segment needs `segmentation_id`",
        },
        bad: &[r#"{"network": "n", "network_type": "vlan", "physical_network": "p"}"#],
        good: r#"{"network": "n", "network_type": "vlan", "physical_network": "p", "segmentation_id": 10}"#,
    },
    Check {
        heat: "openstack/neutron/segment.py Segment.validate",
        scope: Properties,
        when: All(&[
            Is("network_type", &[Str("local"), Str("flat")]),
            Given("segmentation_id"),
        ]),
        says: Says::Text {
            heat: "segmentation_id is prohibited for {value:network_type} provider network.",
            what: "a `local` or `flat` segment takes no `segmentation_id`",
        },
        bad: &[
            r#"{"network": "n", "network_type": "local", "segmentation_id": 10}"#,
            r#"{"network": "n", "network_type": "flat", "physical_network": "p", "segmentation_id": 10}"#,
        ],
        good: r#"{"network": "n", "network_type": "local"}"#,
    },
    Check {
        heat: "openstack/neutron/segment.py Segment.validate",
        scope: Properties,
        when: All(&[
            Is("network_type", &[Str("vxlan"), Str("gre"), Str("geneve")]),
            Given("physical_network"),
        ]),
        says: Says::Text {
            heat: "physical_network is prohibited for {value:network_type} provider network.",
            what: "a `vxlan`, `gre` or `geneve` segment takes no `physical_network`",
        },
        bad: &[r#"{"network": "n", "network_type": "vxlan", "physical_network": "p"}"#],
        good: r#"{"network": "n", "network_type": "vxlan"}"#,
    },
    Check {
        heat: "openstack/neutron/segment.py Segment.validate",
        scope: Properties,
        when: All(&[
            Is("network_type", &[Str("vlan")]),
            Above("segmentation_id", 4094),
        ]),
        says: Says::Text {
            heat: "Up to 4094 VLAN network segments can exist on each physical_network.",
            what: "a `vlan` segment's `segmentation_id` is at most 4094",
        },
        bad: &[
            r#"{"network": "n", "network_type": "vlan", "physical_network": "p", "segmentation_id": 4095}"#,
        ],
        good: r#"{"network": "n", "network_type": "vlan", "physical_network": "p", "segmentation_id": 4094}"#,
    },
];

static NEUTRON_SUBNET: &[Check] = &[
    Check {
        heat: "openstack/neutron/subnet.py Subnet.validate",
        scope: Properties,
        when: All(&[Given("subnetpool"), Truthy("cidr")]),
        says: Says::Conflict(&["subnetpool", "cidr"]),
        bad: &[r#"{"network": "n", "subnetpool": "p", "cidr": "10.0.0.0/24"}"#],
        good: r#"{"network": "n", "subnetpool": "p"}"#,
    },
    Check {
        heat: "openstack/neutron/subnet.py Subnet.validate",
        scope: Properties,
        when: All(&[Absent("subnetpool"), Falsy("cidr")]),
        says: Says::Unspecified(&["subnetpool", "cidr"]),
        bad: &[r#"{"network": "n"}"#],
        good: r#"{"network": "n", "cidr": "10.0.0.0/24"}"#,
    },
    Check {
        heat: "openstack/neutron/subnet.py Subnet.validate",
        scope: Properties,
        when: All(&[Truthy("prefixlen"), Truthy("cidr")]),
        says: Says::Conflict(&["prefixlen", "cidr"]),
        bad: &[r#"{"network": "n", "prefixlen": 24, "cidr": "10.0.0.0/24"}"#],
        good: r#"{"network": "n", "prefixlen": 24, "subnetpool": "p"}"#,
    },
    Check {
        heat: "openstack/neutron/subnet.py Subnet.validate",
        scope: Properties,
        when: All(&[
            Is("ip_version", &[Int(4)]),
            Any(&[Truthy("ipv6_ra_mode"), Truthy("ipv6_address_mode")]),
        ]),
        says: Says::Text {
            heat: "ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.",
            what: "`ipv6_ra_mode` and `ipv6_address_mode` need `ip_version: 6` (the default is \
                   4)",
        },
        bad: &[
            r#"{"network": "n", "cidr": "10.0.0.0/24", "ipv6_address_mode": "slaac"}"#,
            r#"{"network": "n", "cidr": "10.0.0.0/24", "ip_version": 4, "ipv6_ra_mode": "slaac"}"#,
        ],
        good: r#"{"network": "n", "cidr": "fd00::/64", "ip_version": 6, "ipv6_address_mode": "slaac"}"#,
    },
    Check {
        heat: "openstack/neutron/subnet.py Subnet.validate",
        scope: Properties,
        when: All(&[
            Truthy("ipv6_ra_mode"),
            Truthy("ipv6_address_mode"),
            Differ("ipv6_ra_mode", "ipv6_address_mode"),
        ]),
        says: Says::Text {
            heat: "When both ipv6_ra_mode and ipv6_address_mode are set, they must be equal.",
            what: "`ipv6_ra_mode` and `ipv6_address_mode` differ",
        },
        bad: &[
            r#"{"network": "n", "cidr": "fd00::/64", "ip_version": 6, "ipv6_ra_mode": "slaac", "ipv6_address_mode": "dhcpv6-stateful"}"#,
        ],
        good: r#"{"network": "n", "cidr": "fd00::/64", "ip_version": 6, "ipv6_ra_mode": "slaac", "ipv6_address_mode": "slaac"}"#,
    },
];

static NEUTRON_SUBNET_POOL: &[Check] = &[
    Check {
        heat: "openstack/neutron/subnetpool.py SubnetPool._validate_prefix_bounds",
        scope: Properties,
        when: All(&[
            Truthy("min_prefixlen"),
            Truthy("max_prefixlen"),
            Greater("min_prefixlen", "max_prefixlen"),
        ]),
        says: Says::Text {
            heat: "Illegal prefix bounds: max_prefixlen={value:max_prefixlen}, \
                   min_prefixlen={value:min_prefixlen}.",
            what: "`min_prefixlen` is greater than `max_prefixlen`",
        },
        bad: &[r#"{"prefixes": ["10.0.0.0/8"], "min_prefixlen": 28, "max_prefixlen": 24}"#],
        good: r#"{"prefixes": ["10.0.0.0/8"], "min_prefixlen": 24, "max_prefixlen": 28}"#,
    },
    Check {
        heat: "openstack/neutron/subnetpool.py SubnetPool._validate_prefix_bounds",
        scope: Properties,
        when: All(&[
            Truthy("default_prefixlen"),
            Truthy("max_prefixlen"),
            Greater("default_prefixlen", "max_prefixlen"),
        ]),
        says: Says::Text {
            heat: "Illegal prefix bounds: max_prefixlen={value:max_prefixlen}, \
                   default_prefixlen={value:default_prefixlen}.",
            what: "`default_prefixlen` is greater than `max_prefixlen`",
        },
        bad: &[r#"{"prefixes": ["10.0.0.0/8"], "default_prefixlen": 28, "max_prefixlen": 24}"#],
        good: r#"{"prefixes": ["10.0.0.0/8"], "default_prefixlen": 24, "max_prefixlen": 28}"#,
    },
    Check {
        heat: "openstack/neutron/subnetpool.py SubnetPool._validate_prefix_bounds",
        scope: Properties,
        when: All(&[
            Truthy("default_prefixlen"),
            Truthy("min_prefixlen"),
            Greater("min_prefixlen", "default_prefixlen"),
        ]),
        says: Says::Text {
            heat: "Illegal prefix bounds: min_prefixlen={value:min_prefixlen}, \
                   default_prefixlen={value:default_prefixlen}.",
            what: "`min_prefixlen` is greater than `default_prefixlen`",
        },
        bad: &[r#"{"prefixes": ["10.0.0.0/8"], "default_prefixlen": 24, "min_prefixlen": 28}"#],
        good: r#"{"prefixes": ["10.0.0.0/8"], "default_prefixlen": 28, "min_prefixlen": 24}"#,
    },
];

static NOVA_QUOTA: &[Check] = &[Check {
    heat: "openstack/nova/quota.py NovaQuota.validate",
    scope: Properties,
    when: All(&[
        Absent("cores"),
        Absent("fixed_ips"),
        Absent("floating_ips"),
        Absent("injected_file_content_bytes"),
        Absent("injected_file_path_bytes"),
        Absent("injected_files"),
        Absent("instances"),
        Absent("key_pairs"),
        Absent("metadata_items"),
        Absent("ram"),
        Absent("security_group_rules"),
        Absent("security_groups"),
        Absent("server_group_members"),
        Absent("server_groups"),
    ]),
    says: Says::Unspecified(&[
        "cores",
        "fixed_ips",
        "floating_ips",
        "injected_file_content_bytes",
        "injected_file_path_bytes",
        "injected_files",
        "instances",
        "key_pairs",
        "metadata_items",
        "ram",
        "security_group_rules",
        "security_groups",
        "server_group_members",
        "server_groups",
    ]),
    bad: &[r#"{"project": "p"}"#],
    good: r#"{"project": "p", "cores": 10}"#,
}];

/// A server booted from a volume, so that Heat checks no image (which needs a cloud).
static NOVA_SERVER: &[Check] = &[
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: Properties,
        when: All(&[
            Truthy("block_device_mapping"),
            Truthy("block_device_mapping_v2"),
        ]),
        says: Says::Conflict(&["block_device_mapping", "block_device_mapping_v2"]),
        bad: &[
            r#"{"block_device_mapping": [{"device_name": "vda", "volume_id": "v"}], "block_device_mapping_v2": [{"volume_id": "w"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "w"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: EachItem("block_device_mapping"),
        when: All(&[Given("volume_id"), Given("snapshot_id")]),
        says: Says::Conflict(&["volume_id", "snapshot_id"]),
        bad: &[
            r#"{"block_device_mapping": [{"device_name": "vda", "volume_id": "v", "snapshot_id": "s"}]}"#,
        ],
        good: r#"{"block_device_mapping": [{"device_name": "vda", "volume_id": "v"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: EachItem("block_device_mapping"),
        when: All(&[Absent("volume_id"), Absent("snapshot_id")]),
        says: Says::Text {
            heat: "Either volume_id or snapshot_id must be specified for device mapping \
                   {value:device_name}",
            what: "a block device mapping needs `volume_id` or `snapshot_id`",
        },
        bad: &[r#"{"block_device_mapping": [{"device_name": "vda"}]}"#],
        good: r#"{"block_device_mapping": [{"device_name": "vda", "snapshot_id": "s"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: EachItem("block_device_mapping_v2"),
        when: Count {
            of: BDM_V2_SOURCES,
            min: 2,
            max: usize::MAX,
        },
        says: Says::Conflict(&[
            "volume_id",
            "snapshot_id",
            "image",
            "swap_size",
            "ephemeral_size",
            "ephemeral_format",
        ]),
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v", "snapshot_id": "s"}]}"#,
            r#"{"block_device_mapping_v2": [{"image_id": "i", "swap_size": 1}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: EachItem("block_device_mapping_v2"),
        when: Count {
            of: BDM_V2_SOURCES,
            min: 0,
            max: 0,
        },
        says: Says::Text {
            heat: "Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or \
                   ephemeral_format must be specified.",
            what: "a block device mapping needs one of `volume_id`, `snapshot_id`, `image`, \
                   `swap_size`, `ephemeral_size`, `ephemeral_format`",
        },
        bad: &[r#"{"block_device_mapping_v2": [{"volume_id": "v"}, {"device_name": "vdb"}]}"#],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}, {"device_name": "vdb", "swap_size": 1}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server._validate_block_device_mapping",
        scope: Properties,
        when: All(&[
            Absent("image"),
            Not(&InAnyItem(
                "block_device_mapping",
                &Is("device_name", &[Str("vda")]),
            )),
            Not(&InAnyItem(
                "block_device_mapping_v2",
                &All(&[
                    Any(&[Given("volume_id"), Given("snapshot_id"), Given("image")]),
                    Any(&[Absent("boot_index"), Is("boot_index", &[Int(0)])]),
                ]),
            )),
        ]),
        says: Says::Text {
            heat: "Neither image nor bootable volume is specified for instance {resource}",
            what: "the server has no `image` and no bootable volume",
        },
        bad: &[
            "{}",
            r#"{"block_device_mapping_v2": [{"volume_id": "v", "boot_index": 1}]}"#,
            r#"{"block_device_mapping": [{"device_name": "vdb", "volume_id": "v"}]}"#,
        ],
        good: r#"{"block_device_mapping": [{"device_name": "vda", "volume_id": "v"}]}"#,
    },
    Check {
        heat: "openstack/nova/server_network_mixin.py ServerNetworkMixin._validate_network",
        scope: EachItem("networks"),
        when: All(&[
            Absent("network"),
            Absent("port"),
            Absent("subnet"),
            Falsy("allocate_network"),
        ]),
        says: Says::Text {
            heat: "One of the properties \"network\", \"port\", \"allocate_network\" or \
                   \"subnet\" should be set for the specified network of server \"{resource}\".",
            what: "a network of the server needs `network`, `port`, `subnet` or \
                   `allocate_network`",
        },
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"fixed_ip": "10.0.0.5"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"uuid": "n", "fixed_ip": "10.0.0.5"}]}"#,
    },
    Check {
        heat: "openstack/nova/server_network_mixin.py ServerNetworkMixin._validate_network",
        scope: EachItem("networks"),
        when: All(&[
            Truthy("allocate_network"),
            Any(&[
                Given("fixed_ip"),
                Given("floating_ip"),
                Given("network"),
                Given("port"),
                Given("port_extra_properties"),
                Given("subnet"),
                Given("tag"),
            ]),
        ]),
        says: Says::Text {
            heat: "Can not specify \"allocate_network\" with other keys of networks at the same \
                   time.",
            what: "a network with `allocate_network` takes no other key",
        },
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"allocate_network": "auto", "network": "n"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"network": "n"}]}"#,
    },
    Check {
        heat: "openstack/nova/server_network_mixin.py ServerNetworkMixin._validate_network",
        scope: EachItem("networks"),
        when: All(&[Truthy("fixed_ip"), Given("port")]),
        says: Says::Conflict(&["networks/fixed_ip", "networks/port"]),
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"port": "p", "fixed_ip": "10.0.0.5"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"port": "p"}]}"#,
    },
    Check {
        heat: "openstack/nova/server_network_mixin.py ServerNetworkMixin._validate_network",
        scope: EachItem("networks"),
        when: All(&[
            Given("floating_ip"),
            Given("network"),
            Absent("port"),
            Absent("subnet"),
            Falsy("port_extra_properties"),
        ]),
        says: Says::Text {
            heat: "Property \"floating_ip\" is not supported if only \"network\" is specified, \
                   because the corresponding port can not be retrieved.",
            what: "`floating_ip` needs `port` or `subnet` beside `network`",
        },
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"network": "n", "floating_ip": "f"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"network": "n", "subnet": "s", "floating_ip": "f"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server.validate",
        scope: Properties,
        when: All(&[
            InAnyItem("networks", &Truthy("allocate_network")),
            LongerThan("networks", 1),
        ]),
        says: Says::Text {
            heat: "Property \"allocate_network\" can not be specified if multiple network \
                   interfaces set for server.",
            what: "`allocate_network` is for a server with one network",
        },
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"allocate_network": "auto"}, {"network": "n"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "networks": [{"network": "m"}, {"network": "n"}]}"#,
    },
    Check {
        heat: "openstack/nova/server.py Server.validate",
        scope: Properties,
        when: All(&[
            Truthy("security_groups"),
            InAnyItem("networks", &Given("port")),
        ]),
        says: Says::Conflict(&["security_groups", "networks/port"]),
        bad: &[
            r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "security_groups": ["default"], "networks": [{"port": "p"}]}"#,
        ],
        good: r#"{"block_device_mapping_v2": [{"volume_id": "v"}], "security_groups": ["default"], "networks": [{"network": "n"}]}"#,
    },
];

/// The sources of a `block_device_mapping_v2` item, as Heat counts them (`image_id` is read as
/// `image`; the ephemeral pair counts once, as `ephemeral_size or ephemeral_format`).
static BDM_V2_SOURCES: &[Term] = &[
    Given("volume_id"),
    Given("snapshot_id"),
    Given("image"),
    Given("swap_size"),
    Any(&[Truthy("ephemeral_size"), Given("ephemeral_format")]),
];

static OCTAVIA_L7_POLICY: &[Check] = &[
    Check {
        heat: "openstack/octavia/l7policy.py L7Policy.validate",
        scope: Properties,
        when: All(&[
            Is("action", &[Str("REJECT")]),
            Any(&[Given("redirect_pool"), Given("redirect_url")]),
        ]),
        says: Says::Text {
            heat: "Properties redirect_pool and redirect_url are not required when action type \
                   is set to REJECT.",
            what: "a `REJECT` policy takes no `redirect_pool` or `redirect_url`",
        },
        bad: &[r#"{"listener": "l", "action": "REJECT", "redirect_url": "http://x"}"#],
        good: r#"{"listener": "l", "action": "REJECT"}"#,
    },
    Check {
        heat: "openstack/octavia/l7policy.py L7Policy.validate",
        scope: Properties,
        when: All(&[
            Is("action", &[Str("REDIRECT_TO_POOL")]),
            Given("redirect_url"),
        ]),
        says: Says::ValueDependency("redirect_url", "action", "REDIRECT_TO_URL"),
        bad: &[
            r#"{"listener": "l", "action": "REDIRECT_TO_POOL", "redirect_pool": "p", "redirect_url": "http://x"}"#,
        ],
        good: r#"{"listener": "l", "action": "REDIRECT_TO_POOL", "redirect_pool": "p"}"#,
    },
    Check {
        heat: "openstack/octavia/l7policy.py L7Policy.validate",
        scope: Properties,
        when: All(&[
            Is("action", &[Str("REDIRECT_TO_POOL")]),
            Absent("redirect_pool"),
        ]),
        says: Says::Text {
            heat: "Property redirect_pool is required when action type is set to \
                   REDIRECT_TO_POOL.",
            what: "a `REDIRECT_TO_POOL` policy needs `redirect_pool`",
        },
        bad: &[r#"{"listener": "l", "action": "REDIRECT_TO_POOL"}"#],
        good: r#"{"listener": "l", "action": "REDIRECT_TO_POOL", "redirect_pool": "p"}"#,
    },
    Check {
        heat: "openstack/octavia/l7policy.py L7Policy.validate",
        scope: Properties,
        when: All(&[
            Is("action", &[Str("REDIRECT_TO_URL")]),
            Given("redirect_pool"),
        ]),
        says: Says::ValueDependency("redirect_pool", "action", "REDIRECT_TO_POOL"),
        bad: &[
            r#"{"listener": "l", "action": "REDIRECT_TO_URL", "redirect_pool": "p", "redirect_url": "http://x"}"#,
        ],
        good: r#"{"listener": "l", "action": "REDIRECT_TO_URL", "redirect_url": "http://x"}"#,
    },
    Check {
        heat: "openstack/octavia/l7policy.py L7Policy.validate",
        scope: Properties,
        when: All(&[
            Is("action", &[Str("REDIRECT_TO_URL")]),
            Absent("redirect_url"),
        ]),
        says: Says::Text {
            heat: "Property redirect_url is required when action type is set to REDIRECT_TO_URL.",
            what: "a `REDIRECT_TO_URL` policy needs `redirect_url`",
        },
        bad: &[r#"{"listener": "l", "action": "REDIRECT_TO_URL"}"#],
        good: r#"{"listener": "l", "action": "REDIRECT_TO_URL", "redirect_url": "http://x"}"#,
    },
];

static OCTAVIA_L7_RULE: &[Check] = &[Check {
    heat: "openstack/octavia/l7rule.py L7Rule.validate",
    scope: Properties,
    when: All(&[Is("type", &[Str("HEADER"), Str("COOKIE")]), Absent("key")]),
    says: Says::Text {
        heat: "Property key is missing. This property should be specified for rules of HEADER \
               and COOKIE types.",
        what: "a `HEADER` or `COOKIE` rule needs `key`",
    },
    bad: &[r#"{"l7policy": "p", "type": "HEADER", "compare_type": "EQUAL_TO", "value": "v"}"#],
    good: r#"{"l7policy": "p", "type": "HEADER", "compare_type": "EQUAL_TO", "value": "v", "key": "k"}"#,
}];

static OCTAVIA_LISTENER: &[Check] = &[Check {
    heat: "openstack/octavia/listener.py Listener.validate",
    scope: Properties,
    when: All(&[
        Is("protocol", &[Str("TERMINATED_HTTPS")]),
        Absent("default_tls_container_ref"),
    ]),
    says: Says::Text {
        heat: "Property default_tls_container_ref required when protocol is TERMINATED_HTTPS.",
        what: "a `TERMINATED_HTTPS` listener needs `default_tls_container_ref`",
    },
    bad: &[r#"{"loadbalancer": "l", "protocol": "TERMINATED_HTTPS", "protocol_port": 443}"#],
    good: r#"{"loadbalancer": "l", "protocol": "TERMINATED_HTTPS", "protocol_port": 443, "default_tls_container_ref": "c"}"#,
}];

static OCTAVIA_POOL: &[Check] = &[
    Check {
        heat: "openstack/octavia/pool.py Pool.validate",
        scope: Properties,
        when: All(&[Absent("listener"), Absent("loadbalancer")]),
        says: Says::Unspecified(&["listener", "loadbalancer"]),
        bad: &[r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}"#],
        good: r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "listener": "l"}"#,
    },
    Check {
        heat: "openstack/octavia/pool.py Pool.validate",
        scope: Map("session_persistence"),
        when: All(&[Is("type", &[Str("APP_COOKIE")]), Falsy("cookie_name")]),
        says: Says::Text {
            heat: "Property cookie_name is required when session_persistence type is set to \
                   APP_COOKIE.",
            what: "`APP_COOKIE` session persistence needs `cookie_name`",
        },
        bad: &[
            r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "listener": "l", "session_persistence": {"type": "APP_COOKIE"}}"#,
        ],
        good: r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "listener": "l", "session_persistence": {"type": "APP_COOKIE", "cookie_name": "c"}}"#,
    },
    Check {
        heat: "openstack/octavia/pool.py Pool.validate",
        scope: Map("session_persistence"),
        when: All(&[Is("type", &[Str("SOURCE_IP")]), Truthy("cookie_name")]),
        says: Says::Text {
            heat: "Property cookie_name must NOT be specified when session_persistence type is \
                   set to SOURCE_IP.",
            what: "`SOURCE_IP` session persistence takes no `cookie_name`",
        },
        bad: &[
            r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "listener": "l", "session_persistence": {"type": "SOURCE_IP", "cookie_name": "c"}}"#,
        ],
        good: r#"{"lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "listener": "l", "session_persistence": {"type": "SOURCE_IP"}}"#,
    },
];

static OCTAVIA_QUOTA: &[Check] = &[Check {
    heat: "openstack/octavia/quota.py OctaviaQuota.validate",
    scope: Properties,
    when: All(&[
        Absent("healthmonitor"),
        Absent("listener"),
        Absent("loadbalancer"),
        Absent("member"),
        Absent("pool"),
    ]),
    says: Says::Unspecified(&[
        "healthmonitor",
        "listener",
        "loadbalancer",
        "member",
        "pool",
    ]),
    bad: &[r#"{"project": "p"}"#],
    good: r#"{"project": "p", "pool": 10}"#,
}];

static ZUN_CONTAINER: &[Check] = &[
    Check {
        heat: "openstack/zun/container.py Container._validate_mount",
        scope: EachItem("mounts"),
        when: All(&[Absent("volume_id"), Absent("volume_size")]),
        says: Says::Text {
            heat: "One of the properties \"volume_id\" or \"volume_size\" should be set for the \
                   specified mount of container \"{resource}\".",
            what: "a mount needs `volume_id` or `volume_size`",
        },
        bad: &[r#"{"image": "i", "mounts": [{"mount_path": "/data"}]}"#],
        good: r#"{"image": "i", "mounts": [{"mount_path": "/data", "volume_size": 1}]}"#,
    },
    Check {
        heat: "openstack/zun/container.py Container._validate_mount",
        scope: EachItem("mounts"),
        when: All(&[Truthy("volume_id"), Truthy("volume_size")]),
        says: Says::Conflict(&["networks/volume_id", "networks/volume_size"]),
        bad: &[
            r#"{"image": "i", "mounts": [{"mount_path": "/data", "volume_id": "v", "volume_size": 1}]}"#,
        ],
        good: r#"{"image": "i", "mounts": [{"mount_path": "/data", "volume_id": "v"}]}"#,
    },
    Check {
        heat: "openstack/zun/container.py Container._validate_network",
        scope: EachItem("networks"),
        when: All(&[Absent("network"), Absent("port")]),
        says: Says::Unspecified(&["network", "port"]),
        bad: &[r#"{"image": "i", "networks": [{"fixed_ip": "10.0.0.5"}]}"#],
        good: r#"{"image": "i", "networks": [{"network": "n", "fixed_ip": "10.0.0.5"}]}"#,
    },
    Check {
        heat: "openstack/zun/container.py Container._validate_network",
        scope: EachItem("networks"),
        when: All(&[Truthy("fixed_ip"), Given("port")]),
        says: Says::Conflict(&["networks.fixed_ip", "networks.port"]),
        bad: &[r#"{"image": "i", "networks": [{"port": "p", "fixed_ip": "10.0.0.5"}]}"#],
        good: r#"{"image": "i", "networks": [{"port": "p"}]}"#,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource_types;

    #[test]
    fn the_types_are_sorted_once_each_and_registered() {
        let names: Vec<&str> = TYPES.iter().map(|(t, _)| *t).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        for name in names {
            assert!(resource_types::get(name).is_some(), "{name}");
            assert!(!for_type(name).is_empty(), "{name}");
        }
        assert!(for_type("OS::Heat::None").is_empty());
    }

    /// Every name a check reads is a property of the type (or a key of the list's items or of the
    /// map it reads in), so that a typo cannot make a check that never holds.
    #[test]
    fn every_name_is_a_property_of_its_scope() {
        for (type_name, checks) in TYPES {
            let t = resource_types::get(type_name).expect("registered");
            for check in *checks {
                let scope = match check.scope {
                    Scope::Properties => &t.properties,
                    Scope::EachItem(list) => {
                        &t.properties[list]
                            .items
                            .as_ref()
                            .unwrap_or_else(|| panic!("{type_name}.{list} has items"))
                            .schema
                    }
                    Scope::Map(map) => &t.properties[map].schema,
                };
                let mut names = Vec::new();
                term_names(&check.when, &mut names);
                for (name, items) in names {
                    let schema = scope
                        .get(name)
                        .unwrap_or_else(|| panic!("{type_name}: no {name} ({})", check.heat));
                    if let Some(key) = items {
                        let item = schema
                            .items
                            .as_ref()
                            .unwrap_or_else(|| panic!("{type_name}.{name} is a list"));
                        assert!(
                            item.schema.contains_key(key),
                            "{type_name}: no {name}.{key}"
                        );
                    }
                }
                for example in check.bad.iter().chain([&check.good]) {
                    let value: serde_json::Value =
                        serde_json::from_str(example).unwrap_or_else(|e| panic!("{example}: {e}"));
                    assert!(value.is_object(), "{example}");
                }
            }
        }
    }

    /// The names a term reads: a name of the scope, or a key of the items of a list of it.
    fn term_names(term: &Term, out: &mut Vec<(&'static str, Option<&'static str>)>) {
        match term {
            Term::Given(n)
            | Term::Absent(n)
            | Term::Truthy(n)
            | Term::Falsy(n)
            | Term::Is(n, _)
            | Term::IsNot(n, _)
            | Term::Above(n, _)
            | Term::LongerThan(n, _) => out.push((n, None)),
            Term::Differ(a, b) | Term::Greater(a, b) => {
                out.push((a, None));
                out.push((b, None));
            }
            Term::All(terms) | Term::Any(terms) | Term::Count { of: terms, .. } => {
                for t in *terms {
                    term_names(t, out);
                }
            }
            Term::Not(t) => term_names(t, out),
            Term::InAnyItem(list, t) => {
                let mut inner = Vec::new();
                term_names(t, &mut inner);
                out.extend(inner.into_iter().map(|(n, _)| (*list, Some(n))));
            }
            Term::SumAbove { lists, limit } => {
                out.push((limit, None));
                out.extend(lists.iter().map(|(l, k)| (*l, Some(*k))));
            }
            Term::ReservedKey { map, .. } => out.push((map, None)),
            // The names of `term` are another resource's.
            Term::InReferenced { by, .. } => out.push((by, None)),
        }
    }

    #[test]
    fn heat_texts_are_formed_as_heat_forms_them() {
        assert_eq!(
            Says::Conflict(&["a", "b"]).heat_text(),
            "Cannot define the following properties at the same time: a, b."
        );
        assert_eq!(
            Says::Dependency("a", "b").heat_text(),
            "a cannot be specified without b."
        );
        assert_eq!(
            Says::ValueDependency("a", "b", "v").heat_text(),
            "a property should only be specified for b with value v."
        );
        assert_eq!(
            Says::Unspecified(&["a", "b"]).heat_text(),
            "At least one of the following properties must be specified: a, b."
        );
    }
}
