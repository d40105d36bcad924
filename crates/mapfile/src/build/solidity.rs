//! What blocks an agent: rules by entity class and by texture (or shader) name.
//!
//! A `.map` file does not say what is solid; engines and compilers infer it from entity classes
//! and texture names (`SOURCES.md`, "What is solid"). The rules here follow them and are listed
//! on each function.

use crate::map::SurfaceFlags;
use crate::shader::{ShaderContents, Shaders};

/// What an entity's class makes of its brushes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClassSolidity {
    /// Brushes block agents (subject to their textures): the static world and movers.
    Solid,
    /// Brushes never block agents: triggers and illusionary walls.
    NonSolid,
    /// A class these rules do not know; [`BuildOptions::unknown_classes_solid`] decides.
    ///
    /// [`BuildOptions::unknown_classes_solid`]: crate::BuildOptions::unknown_classes_solid
    Unknown,
}

/// The solidity of an entity's class (compared ignoring ASCII case).
///
/// - Solid: `worldspawn`, `func_group`, ericw-tools' `func_detail`, `func_detail_wall` and
///   `func_detail_fence`; `func_wall`; the Quake movers `func_door`, `func_door_secret`,
///   `func_plat`, `func_button`, `func_train` (taken at their closed position, which is the
///   position written in the file), `func_episodegate` and `func_bossgate` (walls in id's
///   `start.map`), `func_door_rotating` (Quake 2, Hipnotic); the Quake III movers and static
///   models `func_bobbing`, `func_rotating`, `func_pendulum`, `func_static`.
/// - Non-solid: every `trigger_*`, `func_illusionary`, `func_detail_illusionary`.
/// - Anything else is [`ClassSolidity::Unknown`]; an entity with no `classname` too, except the
///   first entity of a file, which Quake's compilers take as the world whatever it says.
pub fn class_solidity(classname: Option<&str>, entity_index: usize) -> ClassSolidity {
    const SOLID: [&str; 18] = [
        "worldspawn",
        "func_group",
        "func_detail",
        "func_detail_wall",
        "func_detail_fence",
        "func_wall",
        "func_door",
        "func_door_secret",
        "func_plat",
        "func_button",
        "func_train",
        "func_episodegate",
        "func_bossgate",
        "func_door_rotating",
        "func_bobbing",
        "func_rotating",
        "func_pendulum",
        "func_static",
    ];
    const NON_SOLID: [&str; 2] = ["func_illusionary", "func_detail_illusionary"];
    let Some(name) = classname else {
        return if entity_index == 0 {
            ClassSolidity::Solid
        } else {
            ClassSolidity::Unknown
        };
    };
    if SOLID.iter().any(|s| s.eq_ignore_ascii_case(name)) {
        ClassSolidity::Solid
    } else if NON_SOLID.iter().any(|s| s.eq_ignore_ascii_case(name))
        || starts_with_ignore_case(name, "trigger_")
    {
        ClassSolidity::NonSolid
    } else {
        ClassSolidity::Unknown
    }
}

/// What one face says about its brush.
///
/// The order matters when the faces of a brush disagree: among the faces that are neither
/// markers nor origin, the greatest wins (`Solid` > `Clip` > `Liquid` > `NonSolid`); see
/// [`build_world`](crate::build_world).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaceContents {
    /// An origin face: the brush only marks a rotation centre and is dropped.
    Origin,
    /// A compiler marker (`skip`, `hint`): takes no part in the brush's contents.
    Marker,
    /// A non-solid volume (Quake III `nonsolid` shaders, Quake 2 mist).
    NonSolid,
    /// A liquid (water, slime, lava, teleporter): non-solid.
    Liquid,
    /// Invisible clip: blocks agents ([`Contents::Clip`](cspace_geom::Contents::Clip)).
    Clip,
    /// Ordinary solid, sky included.
    Solid,
}

/// Quake 2 / Quake III contents and surface bits used by [`face_contents`].
mod bits {
    pub const CONTENTS_LAVA: u32 = 8;
    pub const CONTENTS_SLIME: u32 = 16;
    pub const CONTENTS_WATER: u32 = 32;
    /// `CONTENTS_MIST` in Quake 2, `CONTENTS_FOG` in Quake III.
    pub const CONTENTS_MIST: u32 = 64;
    pub const CONTENTS_PLAYERCLIP: u32 = 0x1_0000;
    pub const CONTENTS_MONSTERCLIP: u32 = 0x2_0000;
    pub const CONTENTS_ORIGIN: u32 = 0x100_0000;
    pub const SURF_HINT: u32 = 0x100;
    pub const SURF_SKIP: u32 = 0x200;
}

/// What a face says about its brush, from its Quake 2 / Quake III flags when they say something
/// special, otherwise from its texture name.
///
/// Flags (bits shared by Quake 2 and Quake III, see [`SurfaceFlags`]): `CONTENTS_ORIGIN` is
/// [`FaceContents::Origin`]; `SURF_HINT` or `SURF_SKIP` is [`FaceContents::Marker`];
/// `CONTENTS_PLAYERCLIP` is [`FaceContents::Clip`]; lava, slime or water is
/// [`FaceContents::Liquid`]; mist/fog, or monster clip without player clip, is
/// [`FaceContents::NonSolid`]. Other bits (`CONTENTS_SOLID`, `CONTENTS_DETAIL`, ...) leave the
/// decision to the texture, as Quake III's compiler does (its shaders decide, the map's integers
/// are mostly `0` or `CONTENTS_DETAIL`).
///
/// Texture names are compared ignoring ASCII case, after dropping a leading `textures/`:
/// - Origin: Quake `origin`, Quake III `common/origin`.
/// - Marker: Quake `skip`, `hint`, `hintskip`; Quake III `common/skip`, `common/hint*`
///   (`hint`, `hintskip`, ...), `common/subtlehint`.
/// - Clip: Quake `clip`; Quake III `common/clip`, `common/playerclip`, `common/fullclip`,
///   `common/metalclip`, `common/slickplayerclip`, and `common/ladder` (its shader carries
///   `playerclip`).
/// - Liquid: a Quake name starting with `*` (water, slime, lava, teleporter).
/// - Non-solid: Quake III shaders with `surfaceparm nonsolid` and no `playerclip`, by name:
///   `common/nodrawnonsolid`, `common/trigger`, `common/areaportal`, `common/botclip`,
///   `common/donotenter`, `common/nodrop`, `common/lightgrid`, `common/nobuild`,
///   `common/noalienbuild`, `common/nohumanbuild`, `common/alpha_*`, and every name ending in
///   `_nonsolid` (the custom shaders' convention).
/// - Solid: everything else, sky (`sky*`, `common/skycaulk`) and `common/caulk` included.
///
/// Quake III liquids and other custom shaders are only known from shader scripts, which a `.map`
/// file does not carry: they count as solid unless named `*_nonsolid`, or unless the scripts are
/// given ([`face_contents_in`]).
pub fn face_contents(texture: &str, flags: Option<SurfaceFlags>) -> FaceContents {
    face_contents_in(texture, flags, None)
}

/// [`face_contents`] with Quake III's shader scripts: after the flags, a shader the scripts define
/// decides by its `surfaceparm`s ([`Shader::contents`](crate::shader::Shader::contents)); a
/// texture they do not define falls back on the names above.
pub fn face_contents_in(
    texture: &str,
    flags: Option<SurfaceFlags>,
    shaders: Option<&Shaders>,
) -> FaceContents {
    if let Some(kind) = flags.and_then(flag_contents) {
        return kind;
    }
    if let Some(shader) = shaders.and_then(|s| s.get(texture)) {
        return match shader.contents() {
            ShaderContents::Origin => FaceContents::Origin,
            ShaderContents::Clip => FaceContents::Clip,
            ShaderContents::Liquid => FaceContents::Liquid,
            ShaderContents::NonSolid => FaceContents::NonSolid,
            ShaderContents::Solid => FaceContents::Solid,
        };
    }
    texture_contents(texture)
}

/// Whether `texture` is taken as solid only because no rule says otherwise: no special flags, no
/// shader of `shaders` defines it, and its name is none of the names above (sky and caulk are
/// solid by rule). `sim map` lists such textures of a Quake III map.
pub fn assumed_solid(
    texture: &str,
    flags: Option<SurfaceFlags>,
    shaders: Option<&Shaders>,
) -> bool {
    if flags.and_then(flag_contents).is_some() || shaders.and_then(|s| s.get(texture)).is_some() {
        return false;
    }
    let name = strip_prefix_ignore_case(texture, "textures/").unwrap_or(texture);
    let known_solid = starts_with_ignore_case(name, "sky")
        || name.eq_ignore_ascii_case("common/skycaulk")
        || name.eq_ignore_ascii_case("common/caulk");
    !known_solid && texture_contents(texture) == FaceContents::Solid
}

fn flag_contents(flags: SurfaceFlags) -> Option<FaceContents> {
    use bits::*;
    let (contents, surface) = (flags.contents, flags.surface);
    if contents & CONTENTS_ORIGIN != 0 {
        Some(FaceContents::Origin)
    } else if surface & (SURF_HINT | SURF_SKIP) != 0 {
        Some(FaceContents::Marker)
    } else if contents & CONTENTS_PLAYERCLIP != 0 {
        Some(FaceContents::Clip)
    } else if contents & (CONTENTS_LAVA | CONTENTS_SLIME | CONTENTS_WATER) != 0 {
        Some(FaceContents::Liquid)
    } else if contents & (CONTENTS_MIST | CONTENTS_MONSTERCLIP) != 0 {
        Some(FaceContents::NonSolid)
    } else {
        None
    }
}

fn texture_contents(texture: &str) -> FaceContents {
    let name = strip_prefix_ignore_case(texture, "textures/").unwrap_or(texture);
    let is = |s: &str| name.eq_ignore_ascii_case(s);
    if name.starts_with('*') {
        FaceContents::Liquid
    } else if is("origin") || is("common/origin") {
        FaceContents::Origin
    } else if [
        "skip",
        "hint",
        "hintskip",
        "common/skip",
        "common/subtlehint",
    ]
    .into_iter()
    .any(is)
        || starts_with_ignore_case(name, "common/hint")
    {
        FaceContents::Marker
    } else if [
        "clip",
        "common/clip",
        "common/playerclip",
        "common/fullclip",
        "common/metalclip",
        "common/slickplayerclip",
        "common/ladder",
    ]
    .into_iter()
    .any(is)
    {
        FaceContents::Clip
    } else if [
        "common/nodrawnonsolid",
        "common/trigger",
        "common/areaportal",
        "common/botclip",
        "common/donotenter",
        "common/nodrop",
        "common/lightgrid",
        "common/nobuild",
        "common/noalienbuild",
        "common/nohumanbuild",
    ]
    .into_iter()
    .any(is)
        || starts_with_ignore_case(name, "common/alpha_")
        || ends_with_ignore_case(name, "_nonsolid")
    {
        FaceContents::NonSolid
    } else {
        FaceContents::Solid
    }
}

/// True for the classes whose entities are agent starts: `info_player_*` (Quake's
/// `info_player_start`, `info_player_start2`, `info_player_deathmatch`, `info_player_coop`;
/// Quake III's `info_player_deathmatch`) except `info_player_intermission` (a camera), and
/// `team_*spawn` / `team_*player` (Quake III Team Arena's `team_CTF_redspawn`,
/// `team_CTF_blueplayer`, Unvanquished's `team_human_spawn` and `team_alien_spawn`).
pub fn is_spawn_class(classname: &str) -> bool {
    if starts_with_ignore_case(classname, "info_player_") {
        !classname.eq_ignore_ascii_case("info_player_intermission")
    } else {
        starts_with_ignore_case(classname, "team_")
            && (ends_with_ignore_case(classname, "spawn")
                || ends_with_ignore_case(classname, "player"))
    }
}

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    strip_prefix_ignore_case(s, prefix).is_some()
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.as_bytes().get(..prefix.len())?;
    // An ASCII prefix matched ignoring case ends on a character boundary.
    head.eq_ignore_ascii_case(prefix.as_bytes())
        .then(|| &s[prefix.len()..])
}

fn ends_with_ignore_case(s: &str, suffix: &str) -> bool {
    s.len() >= suffix.len()
        && s.as_bytes()[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        for solid in [
            "worldspawn",
            "func_detail_fence",
            "FUNC_DOOR",
            "func_static",
        ] {
            assert_eq!(
                class_solidity(Some(solid), 3),
                ClassSolidity::Solid,
                "{solid}"
            );
        }
        for non_solid in ["trigger_once", "Trigger_Push", "func_illusionary"] {
            assert_eq!(
                class_solidity(Some(non_solid), 3),
                ClassSolidity::NonSolid,
                "{non_solid}"
            );
        }
        assert_eq!(
            class_solidity(Some("rotate_object"), 3),
            ClassSolidity::Unknown
        );
        assert_eq!(class_solidity(None, 0), ClassSolidity::Solid);
        assert_eq!(class_solidity(None, 1), ClassSolidity::Unknown);
    }

    #[test]
    fn textures() {
        use FaceContents::*;
        let cases = [
            ("METAL2_4", Solid),
            ("SKY4", Solid),
            ("common/caulk", Solid),
            ("common/skycaulk", Solid),
            ("*04MWAT1", Liquid),
            ("*waterskip", Liquid),
            ("{trigger", Solid),
            ("CLIP", Clip),
            ("textures/common/playerclip", Clip),
            ("common/slickplayerclip", Clip),
            ("skip", Marker),
            ("HINT", Marker),
            ("common/hintskip", Marker),
            ("common/subtlehint", Marker),
            ("origin", Origin),
            ("common/origin", Origin),
            ("common/nodrawnonsolid", NonSolid),
            ("chasm_custom/pk02_snow01_NONSOLID", NonSolid),
            ("common/nobuild", NonSolid),
            ("clipboard", Solid),
            ("é", Solid),
        ];
        for (name, expected) in cases {
            assert_eq!(face_contents(name, None), expected, "{name}");
        }
    }

    #[test]
    fn quake2_flags_override_the_texture_when_special() {
        let flags = |contents, surface| {
            Some(SurfaceFlags {
                contents,
                surface,
                value: 0,
            })
        };
        assert_eq!(
            face_contents("e1u1/water1", flags(32, 0)),
            FaceContents::Liquid
        );
        assert_eq!(
            face_contents("e1u1/clip", flags(0x3_0000, 0)),
            FaceContents::Clip
        );
        assert_eq!(
            face_contents("e1u1/wall", flags(0, 0x200)),
            FaceContents::Marker
        );
        assert_eq!(
            face_contents("e1u1/origin", flags(0x100_0000, 0)),
            FaceContents::Origin
        );
        // CONTENTS_DETAIL (Quake III legacy brushes) says nothing about solidity.
        assert_eq!(
            face_contents("common/caulk", flags(134_217_728, 0)),
            FaceContents::Solid
        );
        assert_eq!(
            face_contents("common/nodrawnonsolid", flags(134_217_728, 0)),
            FaceContents::NonSolid
        );
    }

    #[test]
    fn spawn_classes() {
        for yes in [
            "info_player_start",
            "info_player_start2",
            "info_player_deathmatch",
            "info_player_coop",
            "team_human_spawn",
            "team_alien_spawn",
            "team_CTF_redspawn",
            "team_CTF_blueplayer",
        ] {
            assert!(is_spawn_class(yes), "{yes}");
        }
        for no in [
            "info_player_intermission",
            "info_intermission",
            "team_human_mgturret",
            "light",
        ] {
            assert!(!is_spawn_class(no), "{no}");
        }
    }
}
