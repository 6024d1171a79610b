//! Command line of alpa-calibrate.

pub const USAGE: &str = "\
usage:
  alpa-calibrate [-o FILE] [--name NAME] [--max-bytes N] [--quick]
      measure the GPUs of this machine and write a cluster file (stdout without -o)
  alpa-calibrate --inter-host --rank R --world N --coordinator HOST:PORT [--gpu I] [-o FILE] ...
      one process per host, all at once: NCCL collectives across the hosts; rank 0 writes FILE
  alpa-calibrate --merge FILE... [-o FILE] [--name NAME]
      one cluster file from per-host files and a cross-host file
exit status: 0 done, 1 error, 2 no GPU found";

#[derive(Debug, Default, PartialEq)]
pub struct Args {
    pub output: Option<String>,
    pub name: Option<String>,
    pub max_bytes: u64,
    pub quick: bool,
    pub merge: Vec<String>,
    pub inter_host: Option<InterHost>,
    pub help: bool,
}

#[derive(Debug, PartialEq)]
pub struct InterHost {
    pub rank: usize,
    pub world: usize,
    pub coordinator: String,
    pub gpu: usize,
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or(format!("{flag} needs a value"))?;
    value.parse().map_err(|_| format!("{flag}: `{value}` is not a number"))
}

pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let mut out = Args { max_bytes: 256 << 20, ..Default::default() };
    let (mut inter, mut rank, mut world, mut coordinator, mut gpu) = (false, None, None, None, 0);
    let mut merging = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => out.help = true,
            "-o" | "--output" => out.output = Some(args.next().ok_or("-o needs a file")?),
            "--name" => out.name = Some(args.next().ok_or("--name needs a value")?),
            "--max-bytes" => out.max_bytes = number("--max-bytes", args.next())?,
            "--quick" => out.quick = true,
            "--merge" => merging = true,
            "--inter-host" => inter = true,
            "--rank" => rank = Some(number("--rank", args.next())?),
            "--world" => world = Some(number("--world", args.next())?),
            "--gpu" => gpu = number("--gpu", args.next())?,
            "--coordinator" => coordinator = Some(args.next().ok_or("--coordinator needs HOST:PORT")?),
            file if merging && !file.starts_with('-') => out.merge.push(file.to_string()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if merging && out.merge.is_empty() {
        return Err("--merge needs at least one file".into());
    }
    if merging && inter {
        return Err("--merge and --inter-host do not go together".into());
    }
    if inter {
        let world: usize = world.ok_or("--inter-host needs --world")?;
        let rank: usize = rank.ok_or("--inter-host needs --rank")?;
        if world < 2 || rank >= world {
            return Err(format!("--rank {rank} --world {world}: need world >= 2 and rank < world"));
        }
        let coordinator = coordinator.ok_or("--inter-host needs --coordinator HOST:PORT")?;
        out.inter_host = Some(InterHost { rank, world, coordinator, gpu });
    } else if rank.is_some() || world.is_some() || coordinator.is_some() {
        return Err("--rank, --world and --coordinator belong to --inter-host".into());
    }
    if out.max_bytes < 4096 {
        return Err("--max-bytes must be at least 4096".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Args, String> {
        parse(s.split_whitespace().map(String::from))
    }

    #[test]
    fn modes() {
        assert_eq!(p("-o x.json --quick").unwrap().output.as_deref(), Some("x.json"));
        assert_eq!(p("--merge a.json b.json -o c.json").unwrap().merge, vec!["a.json", "b.json"]);
        let inter = p("--inter-host --rank 1 --world 2 --coordinator h:1234").unwrap();
        assert_eq!(inter.inter_host.unwrap().coordinator, "h:1234");
        for bad in [
            "--merge",
            "--rank 1",
            "--inter-host --rank 2 --world 2 --coordinator h:1",
            "--bogus",
            "--max-bytes x",
            "a.json",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
    }
}
