//! Building the perfect-play databases from the app (`POST
//! /api/perfect/build`, docs/API.md): one build at a time per server, on a
//! thread pool of its own at the lowest priority, pausable (the workers
//! wait at their next report) and resumable after a restart (the builders
//! keep finished files). Before it starts, the free disk space and the
//! available memory are checked against the build's estimate.
//!
//! Who may build: on a server that listens on a loopback address only, a
//! request from this machine; anywhere, an account named with `brett serve
//! --admin NAME`.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use boardgame::ErrorDetail;
use serde::Serialize;
use tablebase::dame::{DameBuildEvent, Material, build_dame};
use tablebase::{BuildOptions, GroupReport, Progress, Sector};

use crate::ApiError;
use crate::perfect::{DbSet, Family};

/// What a build needs free before it starts; `None`: the build's own
/// estimate (docs/API.md, `GET /api/perfect`). Tests set them to see the
/// refusal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildNeeds {
    /// Bytes of free disk space in the database folder.
    pub disk_bytes: Option<u64>,
    /// Bytes of available memory.
    pub memory_bytes: Option<u64>,
}

/// Room on disk kept beyond a build's estimate (temporary files, the
/// estimate's error).
const DISK_MARGIN: u64 = 64 << 20;

/// Who may start, pause and resume builds, and the build running.
pub struct Builds {
    /// The server listens on a loopback address only.
    local_only: bool,
    /// Name keys of the accounts that may build.
    admins: Vec<String>,
    needs: BuildNeeds,
    job: Mutex<Option<Arc<Job>>>,
}

/// The state of a build, as `GET /api/perfect` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct BuildStatus {
    /// `muehle` or `dame`.
    pub game: &'static str,
    /// The rule set (`standard`, `dame-fr`, …).
    pub rules: String,
    /// Up to how many stones a side (Mühle) or pieces (Dame).
    pub size: u32,
    /// `running`, `paused`, `done` or `failed`.
    pub state: &'static str,
    /// What went wrong (`failed`).
    pub error: Option<String>,
    /// Files (sectors, tables) of the build finished, found or built.
    pub files_done: usize,
    /// Files of the build in all.
    pub files_total: usize,
    /// Positions solved by this build so far.
    pub positions_done: u64,
    /// Positions this build has to solve (files found already not counted).
    pub positions_total: u64,
    /// The files being solved now.
    pub current: Vec<String>,
    /// Seconds the build has worked (pauses not counted).
    pub seconds: f64,
    /// Positions solved a second so far (0 until measured).
    pub positions_per_second: f64,
    /// Seconds left, estimated from the speed measured (before it is: from
    /// the figures in docs/RESULTS.md); `None` when done.
    pub seconds_left: Option<f64>,
}

struct Job {
    state: Mutex<JobState>,
    wake: Condvar,
    /// The speed to estimate with until the build has measured its own.
    assumed_speed: f64,
}

struct JobState {
    status: BuildStatus,
    paused: bool,
    /// Worked time before the current run of work.
    worked: Duration,
    /// When the current run of work began (`None`: paused or finished).
    since: Option<Instant>,
    /// Mühle: positions of the groups written, and the work units (two a
    /// position) of the group being built.
    positions_built: u64,
    units: u64,
}

impl Job {
    fn lock(&self) -> MutexGuard<'_, JobState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait here while the build is paused.
    fn checkpoint(&self) {
        let mut s = self.lock();
        while s.paused {
            s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn update(&self, f: impl FnOnce(&mut BuildStatus)) {
        f(&mut self.lock().status);
    }

    /// `units` more work in the Mühle group being built (two a position).
    fn update_units(&self, units: u64) {
        let mut s = self.lock();
        s.units += units;
        let done = s.positions_built + s.units / 2;
        s.status.positions_done = done.min(s.status.positions_total);
    }

    fn finish(&self, error: Option<String>) {
        let mut s = self.lock();
        if let Some(t) = s.since.take() {
            s.worked += t.elapsed();
        }
        s.paused = false;
        if error.is_none() {
            s.status.positions_done = s.status.positions_total;
        }
        s.status.state = if error.is_some() { "failed" } else { "done" };
        s.status.error = error;
        s.status.current.clear();
        self.wake.notify_all();
    }

    fn status(&self) -> BuildStatus {
        let s = self.lock();
        let worked = s.worked + s.since.map_or(Duration::ZERO, |t| t.elapsed());
        let mut st = s.status.clone();
        st.seconds = worked.as_secs_f64();
        let measured = st.seconds >= 1.0 && st.positions_done > 0;
        st.positions_per_second = if measured {
            st.positions_done as f64 / st.seconds
        } else {
            0.0
        };
        let speed = if measured {
            st.positions_per_second
        } else {
            self.assumed_speed
        };
        st.seconds_left = matches!(st.state, "running" | "paused")
            .then(|| st.positions_total.saturating_sub(st.positions_done) as f64 / speed.max(1.0));
        st
    }
}

impl Builds {
    /// Builds for a server listening on `listen`, with `admins` (account
    /// names) and the needs checked before a build.
    pub fn new(listen: IpAddr, admins: &[String], needs: BuildNeeds) -> Builds {
        Builds {
            local_only: listen.is_loopback(),
            admins: admins
                .iter()
                .map(|n| crate::storage::name_key(n.trim()))
                .collect(),
            needs,
            job: Mutex::new(None),
        }
    }

    /// Whether a request from `client` (logged in as `account`, if at all)
    /// may start, pause and resume builds.
    pub fn may_build(&self, client: IpAddr, account: Option<&str>) -> bool {
        let local = self.local_only && is_loopback(client);
        local || account.is_some_and(|a| self.admins.contains(&crate::storage::name_key(a)))
    }

    /// The build running, paused or last finished.
    pub fn status(&self) -> Option<BuildStatus> {
        self.current().map(|j| j.status())
    }

    fn current(&self) -> Option<Arc<Job>> {
        self.job.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Start building `set` up to `size` into `dir`, after checking the
    /// disk and the memory.
    pub fn start(&self, dir: &Path, set: &DbSet, size: u32) -> Result<BuildStatus, ApiError> {
        let mut slot = self.job.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(j) = slot.as_ref()
            && matches!(j.lock().status.state, "running" | "paused")
        {
            return Err(
                ApiError::NotAllowed("a database build is already running".into())
                    .with_detail(ErrorDetail::new("perfect.busy")),
            );
        }
        let Some(plan) = set.plan(dir, size) else {
            return Err(ApiError::BadRequest(format!(
                "size {size} is not one of this rule set's sizes"
            )));
        };
        std::fs::create_dir_all(dir).map_err(ApiError::internal)?;
        self.check_room(dir, &plan)?;
        let job = Arc::new(Job {
            state: Mutex::new(JobState {
                status: BuildStatus {
                    game: set.family.game(),
                    rules: set.rules.clone(),
                    size,
                    state: "running",
                    error: None,
                    files_done: plan.files_found,
                    files_total: plan.files_total,
                    positions_done: 0,
                    positions_total: plan.positions_missing,
                    current: Vec::new(),
                    seconds: 0.0,
                    positions_per_second: 0.0,
                    seconds_left: None,
                },
                paused: false,
                worked: Duration::ZERO,
                since: Some(Instant::now()),
                positions_built: 0,
                units: 0,
            }),
            wake: Condvar::new(),
            assumed_speed: set.speed(),
        });
        let pool = rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("tablebase-build-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .map_err(ApiError::internal)?;
        let runner = job.clone();
        let family = set.family.clone();
        let dir = dir.to_path_buf();
        std::thread::Builder::new()
            .name("tablebase-build".into())
            .spawn(move || {
                lower_priority();
                let result = pool.install(|| run(&runner, &family, &dir, size));
                runner.finish(result.err());
            })
            .map_err(ApiError::internal)?;
        *slot = Some(job.clone());
        Ok(job.status())
    }

    /// Pause (`true`) or resume (`false`) the build.
    pub fn pause(&self, paused: bool) -> Result<BuildStatus, ApiError> {
        let Some(job) = self.current() else {
            return Err(no_build());
        };
        {
            let mut s = job.lock();
            if !matches!(s.status.state, "running" | "paused") {
                return Err(no_build());
            }
            if paused && !s.paused {
                if let Some(t) = s.since.take() {
                    s.worked += t.elapsed();
                }
            } else if !paused && s.paused {
                s.since = Some(Instant::now());
            }
            s.paused = paused;
            s.status.state = if paused { "paused" } else { "running" };
            job.wake.notify_all();
        }
        Ok(job.status())
    }

    fn check_room(&self, dir: &Path, plan: &Plan) -> Result<(), ApiError> {
        let disk_need = self
            .needs
            .disk_bytes
            .unwrap_or(plan.bytes_missing.saturating_add(DISK_MARGIN));
        short(
            free_disk(dir),
            disk_need,
            "perfect.disk",
            "free disk space",
            "free",
        )?;
        let memory_need = self.needs.memory_bytes.unwrap_or(plan.memory);
        short(
            available_memory(),
            memory_need,
            "perfect.memory",
            "memory",
            "available",
        )?;
        Ok(())
    }
}

/// `409 not_allowed` with detail `code` (`need`, `free` in bytes) when
/// `free` (if known) is less than `need`.
fn short(
    free: Option<u64>,
    need: u64,
    code: &'static str,
    what: &str,
    state: &str,
) -> Result<(), ApiError> {
    match free {
        Some(free) if free < need => Err(ApiError::NotAllowed(format!(
            "not enough {what} for this build: it needs about {} MB, {} MB are {state}",
            need / 1_000_000,
            free / 1_000_000
        ))
        .with_detail(ErrorDetail::new(code).with("need", need).with("free", free))),
        _ => Ok(()),
    }
}

/// `403 forbidden`: the request may not build ([`Builds::may_build`]).
pub fn not_admin() -> ApiError {
    ApiError::Forbidden(
        "only the operator builds databases: on the app of this computer, or logged in with \
         an account named by brett serve --admin"
            .into(),
    )
    .with_detail(ErrorDetail::new("perfect.not_admin"))
}

fn no_build() -> ApiError {
    ApiError::NotAllowed("no database build is running".into())
        .with_detail(ErrorDetail::new("perfect.idle"))
}

/// What a build of one set up to a size has to do.
pub(crate) struct Plan {
    /// Files of the size in all.
    pub files_total: usize,
    /// Files there already.
    pub files_found: usize,
    /// Positions of the files still missing.
    pub positions_missing: u64,
    /// Estimated bytes of the files still missing.
    pub bytes_missing: u64,
    /// Estimated peak memory.
    pub memory: u64,
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(v6.is_loopback(), |v4| v4.is_loopback()),
        v4 => v4.is_loopback(),
    }
}

/// The build itself, on the pool's threads.
fn run(job: &Job, family: &Family, dir: &Path, size: u32) -> Result<(), String> {
    match family {
        Family::Muehle(variant) => {
            let options = BuildOptions {
                dir: dir.to_path_buf(),
                variant: *variant,
            };
            let targets = Sector::all_up_to(size as u8);
            tablebase::build(&options, &targets, &MuehleProgress(job))
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Family::Dame(rules) => {
            let targets = Material::all_up_to(size);
            let positions = |m: Material| crate::perfect::dame_positions(rules, m);
            build_dame(dir, rules, &targets, &mut |ev| {
                match ev {
                    DameBuildEvent::Solving(pair, _) => job.update(|s| {
                        s.current = pair.iter().map(Material::to_string).collect();
                    }),
                    DameBuildEvent::Done(r) => job.update(|s| {
                        s.files_done = (s.files_done + usize::from(!r.skipped)).min(s.files_total);
                        if !r.skipped {
                            s.positions_done += positions(r.material);
                        }
                    }),
                }
                job.checkpoint();
            })
            .map(|_| ())
            .map_err(|e| e.to_string())
        }
    }
}

/// A Mühle build's reports: the counts, and a wait while paused.
struct MuehleProgress<'a>(&'a Job);

impl Progress for MuehleProgress<'_> {
    fn group_started(&self, sectors: &[Sector], _work: u64) {
        self.0
            .update(|s| s.current = sectors.iter().map(Sector::to_string).collect());
        self.0.checkpoint();
    }

    fn advance(&self, units: u64) {
        self.0.update_units(units);
        self.0.checkpoint();
    }

    fn group_done(&self, report: &GroupReport) {
        let mut s = self.0.lock();
        s.positions_built += report.indices;
        s.units = 0;
        s.status.positions_done = s.positions_built.min(s.status.positions_total);
        s.status.files_done =
            (s.status.files_done + report.sectors.len()).min(s.status.files_total);
        s.status.current.clear();
    }
}

/// Run the calling thread at the lowest priority (Linux: nice 19 for this
/// thread alone), so that games and analyses go first.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread; no memory is shared.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

/// Free bytes for an unprivileged user on the file system of `dir`.
fn free_disk(dir: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: `path` is a valid C string and `stat` a plain struct the
        // call fills in.
        let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
        // The field types differ between platforms (u32 on some).
        #[allow(clippy::useless_conversion)]
        (rc == 0).then(|| u64::from(stat.f_bavail).saturating_mul(u64::from(stat.f_frsize)))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// Bytes of memory available to new work (Linux: `MemAvailable`).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The folder the server's databases are in, if it uses any.
pub fn database_dir() -> Option<PathBuf> {
    engine::muehle::databases::installed().map(|d| d.dir().to_path_buf())
}
