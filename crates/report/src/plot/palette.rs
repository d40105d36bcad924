//! The agents' colours: one each for the agents a scenario names one by one, and for each crowd
//! a hue of its own, shaded from dark to light in id order, so that a crowd of 72 reads as two
//! families of lines instead of ten colours cycled across both, and an agent's shade says where
//! in its crowd it stands.

use cspace_scenario::Crowd;
use plotters::style::RGBColor;

/// Colours of agents not in a crowd, in id order (cycled), and of series in other charts:
/// Tableau 10.
pub const AGENT_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(214, 39, 40),
];

/// The hues of crowds, degrees, in the order of the file (cycled): blue, orange, green, purple,
/// teal, brown, magenta, olive; far apart, and none the red of the first divergence.
const CROWD_HUES: [f64; 8] = [210.0, 28.0, 120.0, 275.0, 185.0, 15.0, 320.0, 60.0];

/// A crowd's shades run from this lightness (its first agent) to the next (its last).
const CROWD_LIGHTNESS: (f64, f64) = (0.25, 0.68);

/// The colour of every agent, by id.
#[derive(Debug, Clone)]
pub struct Palette {
    colours: Vec<RGBColor>,
}

impl Palette {
    /// `agents` agents, of which the `crowds` take their crowd's shades; the others take
    /// [`AGENT_COLOURS`] in order.
    pub fn new(agents: usize, crowds: &[Crowd]) -> Palette {
        let mut colours = vec![None; agents];
        for (c, crowd) in crowds.iter().enumerate() {
            let hue = CROWD_HUES[c % CROWD_HUES.len()];
            let n = crowd.agents.len();
            for (k, id) in crowd.agents.clone().enumerate() {
                if let Some(slot) = colours.get_mut(id as usize) {
                    *slot = Some(shade(hue, k, n));
                }
            }
        }
        let mut single = 0;
        let colours = colours
            .into_iter()
            .map(|c| {
                c.unwrap_or_else(|| {
                    single += 1;
                    AGENT_COLOURS[(single - 1) % AGENT_COLOURS.len()]
                })
            })
            .collect();
        Palette { colours }
    }

    /// The colour of agent `agent` (an agent beyond the count takes the cycled colours).
    pub fn colour(&self, agent: usize) -> RGBColor {
        self.colours
            .get(agent)
            .copied()
            .unwrap_or(AGENT_COLOURS[agent % AGENT_COLOURS.len()])
    }

    /// A few of `crowd`'s shades, dark to light, for the legend.
    pub fn ramp(&self, crowd: &Crowd) -> Vec<RGBColor> {
        let n = crowd.agents.len();
        let picks = n.min(5);
        (0..picks)
            .map(|k| {
                let i = if picks > 1 {
                    k * (n - 1) / (picks - 1)
                } else {
                    0
                };
                self.colour(crowd.agents.start as usize + i)
            })
            .collect()
    }
}

/// The `k`-th of `n` shades of `hue` (degrees), dark to light.
fn shade(hue: f64, k: usize, n: usize) -> RGBColor {
    let t = if n > 1 {
        k as f64 / (n - 1) as f64
    } else {
        0.5
    };
    let lightness = CROWD_LIGHTNESS.0 + (CROWD_LIGHTNESS.1 - CROWD_LIGHTNESS.0) * t;
    hsl(hue, 0.75, lightness)
}

/// HSL to RGB (CSS Color 4's formula).
fn hsl(hue: f64, saturation: f64, lightness: f64) -> RGBColor {
    let a = saturation * lightness.min(1.0 - lightness);
    let f = |n: f64| {
        let k = (n + hue / 30.0) % 12.0;
        let v = lightness - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0);
        (v * 255.0).round().clamp(0.0, 255.0) as u8
    };
    RGBColor(f(0.0), f(8.0), f(4.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowds_take_a_hue_each_shaded_by_id_and_single_agents_tableau() {
        let crowds = [
            Crowd {
                name: "crowd 1".into(),
                agents: 1..4,
            },
            Crowd {
                name: "crowd 2".into(),
                agents: 4..7,
            },
        ];
        let p = Palette::new(8, &crowds);
        assert_eq!(p.colour(0), AGENT_COLOURS[0]);
        assert_eq!(p.colour(7), AGENT_COLOURS[1]);
        // Blue shades, dark to light, then orange ones.
        let (a, b) = (p.colour(1), p.colour(3));
        assert!(a.2 > a.0 && b.2 > b.0, "{a:?} {b:?} are blues");
        let sum = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        assert!(sum(a) < sum(p.colour(2)) && sum(p.colour(2)) < sum(b));
        let o = p.colour(5);
        assert!(o.0 > o.2, "{o:?} is an orange");
        // Every agent of the two crowds has a colour of its own.
        let mut all: Vec<RGBColor> = (1..7).map(|i| p.colour(i)).collect();
        all.dedup();
        assert_eq!(all.len(), 6);
        assert_eq!(p.ramp(&crowds[0]).len(), 3);
    }

    #[test]
    fn hsl_matches_css() {
        assert_eq!(hsl(0.0, 1.0, 0.5), RGBColor(255, 0, 0));
        assert_eq!(hsl(120.0, 1.0, 0.5), RGBColor(0, 255, 0));
        assert_eq!(hsl(240.0, 1.0, 0.25), RGBColor(0, 0, 128));
    }
}
