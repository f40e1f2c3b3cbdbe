//! The proxy's approver for protocols whose client can be asked (ACP editors, Codex's IDE
//! clients): the request goes to the client, gate waits for the client's answer (which the
//! client decoder hands over by id instead of passing it to the agent) and reads it as the
//! person's reply. Any failure, or the agent exiting meanwhile, is an error: the call is denied.

use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use super::reader::ReplyTo;
use crate::approve::{ApproveError, Approver, PromptInfo, Reply};
use crate::protocol::acp::{id_key, Waiting};
use crate::protocol::client::AskClient;

pub(crate) struct EditorApprover {
    pub ask: Box<dyn AskClient>,
    pub waiting: Waiting,
    pub to_client: ReplyTo,
}

impl Approver for EditorApprover {
    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let (line, id) = self.ask.request(info).map_err(ApproveError::Client)?;
        let key = id_key(&id);
        let (tx, rx) = mpsc::channel::<Value>();
        self.waiting.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), tx);
        let forget = || {
            self.waiting.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
        };
        if self.to_client.send(line).is_err() {
            forget();
            return Err(ApproveError::Client("the editor's side is closed".into()));
        }
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(response) => return self.ask.reply(info, &response).map_err(ApproveError::Client),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if info.cancel.agent_gone() {
                        forget();
                        return Err(ApproveError::AgentGone);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(ApproveError::Client("the editor's answer was lost".into()))
                }
            }
        }
    }
}
