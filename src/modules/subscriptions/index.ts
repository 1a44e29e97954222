import './event.policy';
import './event.type';
import './event.subscriptions';
