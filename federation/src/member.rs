//! How a node plugs into the server ([`baoqi_server::federated`]): `baoqi serve --node`
//! opens its hub through [`Joining`] (the timeline on the database's clock, a writer with
//! the node's fences), and the hub runs the node's loops through its [`Member`].

use std::sync::Arc;

use baoqi_server::Hub;
use baoqi_server::federated::{BoxFuture, Federation, FederationError, Member};
use baoqi_server::hub::StartError;
use baoqi_server::limits::Limits;
use baoqi_store::model::TableId;
use baoqi_store::timeline::{Millis, Timeline};
use baoqi_store::{Store, Writer};
use tokio::sync::mpsc;

use crate::keeper::{give_up_all, join, scan, watch};
use crate::{Node, NodeConfig, NodeError};

/// The way of `baoqi serve --node NAME --nats URL` into its federation.
#[derive(Debug, Clone)]
pub struct Joining(pub NodeConfig);

impl Federation for Joining {
    fn open(
        &self,
        store: Arc<dyn Store>,
        limits: Limits,
    ) -> BoxFuture<'_, Result<Arc<Hub>, FederationError>> {
        Box::pin(async move {
            open_hub(store, limits, self.0.clone())
                .await
                .map_err(|e| Box::new(e) as FederationError)
        })
    }
}

/// Opens the hub of a node of a federation: its timeline runs on the database server's
/// clock, its writer appends with the fences of the tables it holds, and it holds none
/// until it joins ([`Member::join`]).
pub async fn open_hub(
    store: Arc<dyn Store>,
    limits: Limits,
    config: NodeConfig,
) -> Result<Arc<Hub>, NodeError> {
    let reader = store.clone();
    let (clock, federation) = tokio::task::spawn_blocking(move || {
        let leases = reader.leases().ok_or(NodeError::NoLeases)?;
        Ok::<_, NodeError>((leases.clock()?, leases.federation()?))
    })
    .await??;
    let node = Node::connect(config, &federation).await?;
    // A node's timeline is the database server's clock: its instant now is the Unix time.
    let clock = Millis(clock);
    let timeline = Arc::new(Timeline::resume_at(clock));
    let writer = Writer::start_fenced(store.clone(), timeline.clone(), node.held().clone());
    let member: Arc<dyn Member> = Arc::new(Membership(Arc::new(node)));
    let hub = tokio::task::spawn_blocking(move || {
        Hub::build(store, clock, timeline, writer, limits, Some(member))
    });
    Ok(hub.await??)
}

/// A running node as its hub sees it.
struct Membership(Arc<Node>);

impl Member for Membership {
    fn name(&self) -> &str {
        &self.0.config().name
    }

    fn scan<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, Result<usize, StartError>> {
        Box::pin(scan(hub, &self.0))
    }

    fn join<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, Result<usize, StartError>> {
        Box::pin(join(hub, &self.0))
    }

    fn watch(&self, hub: &Arc<Hub>) {
        watch(hub, &self.0);
    }

    fn leave<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, ()> {
        Box::pin(give_up_all(hub, &self.0))
    }

    fn lost_sender(&self) -> mpsc::UnboundedSender<TableId> {
        self.0.lost_sender()
    }

    fn bus_connected(&self) -> bool {
        self.0.bus().connected()
    }
}
