//! A bank: the model and a system under test with a bug behind a specific order of commands.
//! Shared by `tests/state_machine_bank.rs` and `examples/state_machine.rs` (`#[path]` include).
//!
//! Eight command kinds, all with preconditions. The bug: an account whose audit (taken while it
//! was frozen) found money, and which was then unfrozen, emptied to exactly zero and closed,
//! stays open in the system ("retained for compliance"). Reaching it takes, on one account:
//! `Open`, `Deposit`, `Freeze`, `Audit`, `Unfreeze`, `Withdraw` (or transfers) of exactly the
//! balance, `Close` — seven enabled commands in this order, the amounts matching the balance.

use proptest::prelude::*;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

/// Number of accounts.
pub const ACCOUNTS: usize = 5;
/// Largest amount of one deposit, withdrawal or transfer.
pub const MAX_AMOUNT: u32 = 1000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Account {
    pub open: bool,
    pub frozen: bool,
    pub balance: u32,
    /// The balance the last audit found.
    pub audit: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bank {
    pub accounts: [Account; ACCOUNTS],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Open(usize),
    Deposit(usize, u32),
    Withdraw(usize, u32),
    Transfer(usize, usize, u32),
    Freeze(usize),
    Unfreeze(usize),
    Audit(usize),
    Close(usize),
}

/// The reference model.
pub struct BankModel;

impl ReferenceStateMachine for BankModel {
    type State = Bank;
    type Transition = Command;

    fn init_state() -> BoxedStrategy<Bank> {
        Just(Bank::default()).boxed()
    }

    fn transitions(_: &Bank) -> BoxedStrategy<Command> {
        let id = || 0..ACCOUNTS;
        let amount = || 1..=MAX_AMOUNT;
        prop_oneof![
            id().prop_map(Command::Open),
            (id(), amount()).prop_map(|(a, x)| Command::Deposit(a, x)),
            (id(), amount()).prop_map(|(a, x)| Command::Withdraw(a, x)),
            (id(), id(), amount()).prop_map(|(a, b, x)| Command::Transfer(a, b, x)),
            id().prop_map(Command::Freeze),
            id().prop_map(Command::Unfreeze),
            id().prop_map(Command::Audit),
            id().prop_map(Command::Close),
        ]
        .boxed()
    }

    fn preconditions(bank: &Bank, command: &Command) -> bool {
        let active = |a: usize| bank.accounts[a].open && !bank.accounts[a].frozen;
        match *command {
            Command::Open(a) => !bank.accounts[a].open,
            Command::Deposit(a, _) => active(a),
            Command::Withdraw(a, x) => active(a) && x <= bank.accounts[a].balance,
            Command::Transfer(a, b, x) => {
                a != b && active(a) && active(b) && x <= bank.accounts[a].balance
            }
            Command::Freeze(a) => active(a),
            Command::Unfreeze(a) | Command::Audit(a) => bank.accounts[a].frozen,
            Command::Close(a) => active(a) && bank.accounts[a].balance == 0,
        }
    }

    fn apply(mut bank: Bank, command: &Command) -> Bank {
        let accounts = &mut bank.accounts;
        match *command {
            Command::Open(a) => {
                accounts[a] = Account {
                    open: true,
                    ..Account::default()
                }
            }
            Command::Deposit(a, x) => accounts[a].balance += x,
            Command::Withdraw(a, x) => accounts[a].balance -= x,
            Command::Transfer(a, b, x) => {
                accounts[a].balance -= x;
                accounts[b].balance += x;
            }
            Command::Freeze(a) => accounts[a].frozen = true,
            Command::Unfreeze(a) => accounts[a].frozen = false,
            Command::Audit(a) => accounts[a].audit = Some(accounts[a].balance),
            Command::Close(a) => accounts[a].open = false,
        }
        bank
    }
}

/// The system under test: a ledger keyed by account number.
#[derive(Debug, Default)]
pub struct Ledger {
    balances: std::collections::BTreeMap<usize, u64>,
    frozen: std::collections::BTreeSet<usize>,
    /// The balance each account's last audit found, since it was opened.
    audits: std::collections::BTreeMap<usize, u64>,
}

impl Ledger {
    pub fn open(&mut self, a: usize) {
        self.balances.insert(a, 0);
        self.audits.remove(&a);
    }

    pub fn close(&mut self, a: usize) {
        // The bug: an account whose audit found money is "retained for compliance".
        if self.audits.get(&a).is_some_and(|&found| found > 0) {
            return;
        }
        self.balances.remove(&a);
    }

    pub fn is_open(&self, a: usize) -> bool {
        self.balances.contains_key(&a)
    }

    pub fn balance(&self, a: usize) -> u64 {
        self.balances.get(&a).copied().unwrap_or(0)
    }
}

/// The test: runs each command on the ledger and compares it with the model.
pub struct BankTest;

impl StateMachineTest for BankTest {
    type SystemUnderTest = Ledger;
    type Reference = BankModel;

    fn init_test(_: &Bank) -> Ledger {
        Ledger::default()
    }

    fn apply(mut ledger: Ledger, _: &Bank, command: Command) -> Ledger {
        match command {
            Command::Open(a) => ledger.open(a),
            Command::Deposit(a, x) => *ledger.balances.entry(a).or_default() += u64::from(x),
            Command::Withdraw(a, x) => *ledger.balances.entry(a).or_default() -= u64::from(x),
            Command::Transfer(a, b, x) => {
                *ledger.balances.entry(a).or_default() -= u64::from(x);
                *ledger.balances.entry(b).or_default() += u64::from(x);
            }
            Command::Freeze(a) => {
                ledger.frozen.insert(a);
            }
            Command::Unfreeze(a) => {
                ledger.frozen.remove(&a);
            }
            Command::Audit(a) => {
                let found = ledger.balance(a);
                ledger.audits.insert(a, found);
            }
            Command::Close(a) => ledger.close(a),
        }
        ledger
    }

    fn check_invariants(ledger: &Ledger, bank: &Bank) {
        for (a, account) in bank.accounts.iter().enumerate() {
            assert_eq!(ledger.is_open(a), account.open, "account {a} open");
            if account.open {
                assert_eq!(
                    ledger.balance(a),
                    u64::from(account.balance),
                    "account {a} balance"
                );
                assert_eq!(
                    ledger.frozen.contains(&a),
                    account.frozen,
                    "account {a} frozen"
                );
            }
        }
    }
}
