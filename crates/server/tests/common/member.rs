//! A registered player of a test server, acting with its login cookie.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{TestServer, Ws, id_of, json_answer, token};

/// A registered player: the value of their login cookie.
pub struct Member(pub String);

impl Member {
    pub async fn register(s: &TestServer, name: &str) -> Member {
        let body = json!({"name": name, "password": "a long enough password"});
        let res = s
            .client
            .post(s.url("/api/account/register"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success(), "register {name}");
        let cookie = res.headers()["set-cookie"].to_str().unwrap();
        let value = cookie.split(';').next().unwrap().to_string();
        Member(value)
    }

    pub async fn post(&self, s: &TestServer, path: &str, body: Value) -> (StatusCode, Value) {
        let r = s.client.post(s.url(path)).header("cookie", &self.0);
        json_answer(r.json(&body).send().await.unwrap()).await
    }

    pub async fn get(&self, s: &TestServer, path: &str) -> (StatusCode, Value) {
        let r = s.client.get(s.url(path)).header("cookie", &self.0);
        json_answer(r.send().await.unwrap()).await
    }

    /// Take the invited seat of game `id` with its token.
    pub async fn join(&self, s: &TestServer, id: i64, invite: &str) {
        let path = format!("/api/games/{id}/join");
        let (status, v) = self.post(s, &path, json!({"token": invite})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }

    /// A rated (or casual) online Mühle game created by this member as
    /// White: its id, White's token and the invitation's token.
    pub async fn invite(&self, s: &TestServer, rated: bool) -> (i64, String, String) {
        let body = json!({"game": "muehle", "kind": "online", "rules": "standard",
                          "color": "white", "rated": rated});
        let (status, v) = self.post(s, "/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_eq!(v["state"]["rated"].as_bool().unwrap_or(false), rated, "{v}");
        let invite = v["invite"]["token"].as_str().unwrap().to_string();
        (id_of(&v), token(&v, "white"), invite)
    }

    /// A WebSocket on `path` with the login's cookie.
    pub async fn ws(&self, s: &TestServer, path: &str) -> Ws {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = format!("{}{path}", s.base.replace("http://", "ws://"));
        let mut req = url.into_client_request().unwrap();
        req.headers_mut().insert("cookie", self.0.parse().unwrap());
        tokio_tungstenite::connect_async(req).await.unwrap().0
    }
}
