import './invite.policy';
import './invite.type';
import './invite.queries';
import './invite.mutations';
